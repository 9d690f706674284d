// JavaAttackMeter: what an attack costs java.util.regex (OpenJDK 17), for
// the EngineAttacks judge (engine_attacks_test.py), which decides from these
// costs whether the attack is super-linear. Java has no step counter; the
// judge makes CPU time a stable verdict.
//
// Pattern.compile with the pattern's flags (i CASE_INSENSITIVE, m MULTILINE,
// s DOTALL, x COMMENTS, u UNICODE_CASE), then Matcher.find once for a search,
// or until it fails with the g flag (as replaceAll and split go over the
// subject), timed as the matching thread's CPU time (ThreadMXBean). The
// matcher runs on a thread with a 1 GiB stack: java.util.regex recurses per
// repetition, and a StackOverflowError on a long subject would otherwise end
// the attack before its cost shows (it is still reported as an error).
//
// Compiled by the test (javac into the build tree) and run with the
// JDK's java. Protocol, one JSON line each way (as pcre2_attack_meter.cc):
//   {"op": "compile", "pattern", "flags", "attack"} -> {"unit":
//   "cpu-seconds"} or {"error": "does not compile: <PatternSyntaxException
//   description>"}; {"op": "measure", "n": [...], "runs": k} -> {"costs":
//   [...], "lengths": [...]}, each the least of k runs (no more runs once one
//   costs over 0.5 s), or {"error"}.
// The JDK has no JSON reader: the requests' few shapes are read by a small
// parser of its own below.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public final class JavaAttackMeter {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private Pattern pattern;
  private boolean global;
  private String prefix = "";
  private String pump = "";
  private String suffix = "";

  // ---- A JSON reader for the request lines (objects, arrays, strings,
  // numbers, true/false/null).
  private static final class Json {
    private final String text;
    private int pos;

    Json(String text) {
      this.text = text;
    }

    static Object parse(String text) {
      Json json = new Json(text);
      Object value = json.value();
      json.space();
      if (json.pos != text.length()) throw new IllegalArgumentException("trailing text");
      return value;
    }

    private void space() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) ++pos;
    }

    private char next() {
      if (pos >= text.length()) throw new IllegalArgumentException("unexpected end");
      return text.charAt(pos++);
    }

    private Object value() {
      space();
      char c = next();
      switch (c) {
        case '{': {
          Map<String, Object> object = new LinkedHashMap<>();
          space();
          if (text.startsWith("}", pos)) {
            ++pos;
            return object;
          }
          while (true) {
            space();
            if (next() != '"') throw new IllegalArgumentException("expected a key");
            String key = string();
            space();
            if (next() != ':') throw new IllegalArgumentException("expected :");
            object.put(key, value());
            space();
            char d = next();
            if (d == '}') return object;
            if (d != ',') throw new IllegalArgumentException("expected , or }");
          }
        }
        case '[': {
          List<Object> array = new ArrayList<>();
          space();
          if (text.startsWith("]", pos)) {
            ++pos;
            return array;
          }
          while (true) {
            array.add(value());
            space();
            char d = next();
            if (d == ']') return array;
            if (d != ',') throw new IllegalArgumentException("expected , or ]");
          }
        }
        case '"':
          return string();
        default:
          --pos;
          return word();
      }
    }

    private String string() {
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') return out.toString();
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case 'n': out.append('\n'); break;
          case 't': out.append('\t'); break;
          case 'r': out.append('\r'); break;
          case 'b': out.append('\b'); break;
          case 'f': out.append('\f'); break;
          case 'u':
            if (pos + 4 > text.length()) throw new IllegalArgumentException("bad \\u");
            out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
            pos += 4;
            break;
          default: out.append(e);
        }
      }
    }

    private Object word() {
      int start = pos;
      while (pos < text.length() && "+-0123456789.eEtrufalsn".indexOf(text.charAt(pos)) >= 0) {
        ++pos;
      }
      String w = text.substring(start, pos);
      if (w.equals("true")) return Boolean.TRUE;
      if (w.equals("false")) return Boolean.FALSE;
      if (w.equals("null")) return null;
      return Double.parseDouble(w);
    }
  }

  private static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); ++i) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static String str(Map<?, ?> map, String key) {
    Object value = map.get(key);
    return value instanceof String ? (String) value : "";
  }

  private String compile(Map<?, ?> request) {
    pattern = null;
    String flags = str(request, "flags");
    int options = 0;
    for (char c : flags.toCharArray()) {
      if (c == 'i') options |= Pattern.CASE_INSENSITIVE;
      if (c == 'm') options |= Pattern.MULTILINE;
      if (c == 's') options |= Pattern.DOTALL;
      if (c == 'x') options |= Pattern.COMMENTS;
      if (c == 'u') options |= Pattern.UNICODE_CASE;
    }
    try {
      pattern = Pattern.compile(str(request, "pattern"), options);
    } catch (PatternSyntaxException e) {
      return "{\"error\": " + quote("does not compile: " + e.getDescription()
          + " near index " + e.getIndex()) + "}";
    } catch (RuntimeException e) {
      return "{\"error\": " + quote("does not compile: " + e) + "}";
    }
    global = flags.indexOf('g') >= 0;
    Object attack = request.get("attack");
    if (attack instanceof Map) {
      prefix = str((Map<?, ?>) attack, "prefix");
      pump = str((Map<?, ?>) attack, "pump");
      suffix = str((Map<?, ?>) attack, "suffix");
    } else {
      prefix = pump = suffix = "";
    }
    return "{\"unit\": \"cpu-seconds\"}";
  }

  private double cost(String subject) {
    long start = THREADS.getCurrentThreadCpuTime();
    Matcher matcher = pattern.matcher(subject);
    boolean found = matcher.find();
    while (global && found) found = matcher.find();
    return (THREADS.getCurrentThreadCpuTime() - start) / 1e9;
  }

  private String measure(Map<?, ?> request) {
    Object sizes = request.get("n");
    Object runsValue = request.get("runs");
    int runs = runsValue instanceof Double ? Math.max(1, ((Double) runsValue).intValue()) : 1;
    StringBuilder costs = new StringBuilder();
    StringBuilder lengths = new StringBuilder();
    if (!(sizes instanceof List)) return "{\"error\": \"bad request\"}";
    for (Object size : (List<?>) sizes) {
      int n = size instanceof Double ? ((Double) size).intValue() : 0;
      String subject = prefix + pump.repeat(Math.max(n, 0)) + suffix;
      double least = Double.POSITIVE_INFINITY;
      for (int i = 0; i < runs; ++i) {
        double spent = cost(subject);
        least = Math.min(least, spent);
        if (spent > 0.5) break;
      }
      if (costs.length() > 0) {
        costs.append(", ");
        lengths.append(", ");
      }
      costs.append(least);
      lengths.append(subject.length());
    }
    return "{\"costs\": [" + costs + "], \"lengths\": [" + lengths + "]}";
  }

  private String answer(String line) {
    Map<?, ?> request;
    try {
      Object parsed = Json.parse(line);
      if (!(parsed instanceof Map)) return "{\"error\": \"bad request\"}";
      request = (Map<?, ?>) parsed;
    } catch (RuntimeException e) {
      return "{\"error\": " + quote("bad request line: " + e.getMessage()) + "}";
    }
    String op = str(request, "op");
    if (op.equals("compile")) return compile(request);
    if (op.equals("measure") && pattern != null) {
      try {
        return measure(request);
      } catch (StackOverflowError | OutOfMemoryError e) {
        return "{\"error\": " + quote(e.getClass().getSimpleName()) + "}";
      }
    }
    return "{\"error\": \"bad request\"}";
  }

  private void serve() throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    String line;
    while ((line = in.readLine()) != null) {
      if (line.trim().isEmpty()) continue;
      out.println(answer(line));
      out.flush();
    }
  }

  public static void main(String[] args) throws Exception {
    Throwable[] failure = new Throwable[1];
    Thread worker = new Thread(null, () -> {
      try {
        new JavaAttackMeter().serve();
      } catch (Throwable e) {
        failure[0] = e;
      }
    }, "meter", 1L << 30);
    worker.start();
    worker.join();
    if (failure[0] != null) {
      failure[0].printStackTrace();
      System.exit(1);
    }
  }
}
