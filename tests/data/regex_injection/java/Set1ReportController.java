// First held-out set (frozen finder 15a748f, measured once), seen since:
// a development file now (tests/data/regex_injection/README.md).
package com.example.web;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api")
public class Set1ReportController {
  private static final String LINE = "a,b";
  private final Map<String, Pattern> cache = new HashMap<>();

  @GetMapping("/report")
  public ResponseEntity<String> report(
      @RequestParam(value = "filter", required = false) String filter) {
    if (filter == null) {
      return ResponseEntity.ok("");
    }
    Pattern p = Pattern.compile(filter.trim(), Pattern.CASE_INSENSITIVE); // expect: injection
    return ResponseEntity.ok(p.pattern());
  }

  @PostMapping("/rename")
  public String rename(@RequestBody RenameRequest body) {
    return body.getName().replaceAll(body.getFrom(), body.getTo()); // expect: injection
  }

  @GetMapping("/codes")
  public boolean code(@RequestParam String code) {
    return code.matches("[A-Z]{3}-\\d{4}"); // expect: clean
  }

  public int servlet(HttpServletRequest request) {
    String sep = Optional.ofNullable(request.getParameter("sep")).orElse(",");
    String[] cols = LINE.split(Pattern.quote(sep)); // expect: clean
    String[] raw = LINE.split(sep); // expect: injection
    return cols.length + raw.length;
  }

  public boolean header(HttpServletRequest request) {
    String agent = request.getHeader("User-Agent");
    return Pattern.compile("bot|crawler", Pattern.CASE_INSENSITIVE).matcher(agent).find(); // expect: clean
  }

  public Pattern cached(HttpServletRequest req) {
    String key = req.getParameter("k");
    return cache.computeIfAbsent(key, k -> Pattern.compile(k)); // expect: injection (lambda parameter)
  }
}
