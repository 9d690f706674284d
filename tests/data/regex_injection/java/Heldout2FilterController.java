// Held-out set 2: written before the finder changes of issue 27's follow-up,
// measured once after them, never tuned on (README.md).
package com.example.web;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.*;

@RestController
public class Heldout2FilterController {
  private static final Map<String, String> FIELDS =
      Map.of("name", "^[a-z]+$", "code", "^[A-Z]{3}$");

  @GetMapping("/first")
  public boolean first(HttpServletRequest request, String text) {
    String q = request.getParameterMap().get("q")[0];
    return Pattern.compile(q).matcher(text).find(); // expect: injection
  }

  @GetMapping("/tags")
  public List<Pattern> tags(HttpServletRequest request) {
    return Arrays.stream(request.getParameterValues("tag"))
        .map(Pattern::compile) // expect: injection
        .collect(Collectors.toList());
  }

  @GetMapping("/quoted")
  public boolean quoted(HttpServletRequest request, String text) {
    Pattern p = Pattern.compile(Pattern.quote(request.getParameter("q"))); // expect: clean
    return p.matcher(text).find();
  }

  @GetMapping("/order")
  public boolean order(@RequestParam String order, String text) {
    String p = "asc".equals(order) ? "^a" : "^z";
    return Pattern.compile(p).matcher(text).find(); // expect: clean
  }

  @GetMapping("/field")
  public boolean field(@RequestParam String field, String value) {
    return Pattern.compile(FIELDS.get(field)).matcher(value).matches(); // expect: clean
  }

  @GetMapping("/split")
  public String[] split(@RequestHeader("X-Separator") String separator, String line) {
    return line.split(separator); // expect: injection
  }

  @GetMapping("/exact")
  public boolean exact(@RequestParam String id) {
    return id.matches("\\d{1,9}"); // expect: clean
  }
}
