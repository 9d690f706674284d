package com.example.web;

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

public class SearchServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String q = request.getParameter("q");
    Pattern p = Pattern.compile(q, Pattern.CASE_INSENSITIVE); // expect: injection
    String quoted = Pattern.quote(request.getParameter("q"));
    Pattern safe = Pattern.compile(".*" + quoted + ".*"); // expect: clean
    String[] parts = "a,b,c".split(request.getParameter("sep")); // expect: injection
    boolean ok = request.getParameter("id").matches("[0-9]+"); // expect: clean
    String cleaned = "text".replaceAll(q, ""); // expect: injection
    String format = String.format("^%s$", request.getParameter("name"));
    Pattern named = Pattern.compile(format); // expect: injection
    response.getWriter().println(p.pattern() + safe.pattern() + parts.length + ok
        + cleaned + named.pattern());
  }
}

@RestController
class UserController {
  @GetMapping("/users")
  public List<String> find(@RequestParam("name") String name) {
    Pattern p = Pattern.compile("^" + name); // expect: injection
    return List.of(p.pattern());
  }

  @GetMapping("/users/{id}")
  public String get(@PathVariable String id, String other) {
    String regex = "\\d+";
    if (Pattern.matches(regex, id)) { // expect: clean
      return id;
    }
    return other;
  }

  public boolean check(String input) {
    return Pattern.compile(input).matcher("x").find(); // expect: injection (reached from route, another method)
  }

  public boolean route(HttpServletRequest req) {
    return check(req.getParameter("x"));
  }

  public String reassigned(HttpServletRequest req) {
    String v = Pattern.quote(req.getParameter("v"));
    v = req.getParameter("raw");
    return "abc".replaceFirst(v, "X"); // expect: injection
  }

  public String sanitised(HttpServletRequest req) {
    String v = req.getParameter("v");
    v = Pattern.quote(v);
    return "abc".replaceFirst(v, "X"); // expect: clean
  }

  int limit(HttpServletRequest req) {
    int n = Integer.parseInt(req.getParameter("n"));
    return Pattern.compile("a{1," + n + "}").hashCode(); // expect: clean
  }

  String replacement(HttpServletRequest req, String s) {
    return Pattern.compile("x").matcher(s).replaceAll(req.getParameter("r")); // expect: clean
  }

  String sameName() {
    String q = "fixed";
    return Pattern.compile(q).pattern(); // expect: clean
  }
}
