// First held-out set (frozen finder 15a748f, measured once), seen since:
// a development file now (tests/data/regex_injection/README.md).
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc;

[ApiController]
[Route("api/[controller]")]
public class LogsController : ControllerBase
{
    private static readonly string[] Lines = Array.Empty<string>();

    [HttpGet]
    public IEnumerable<string> Get([FromQuery(Name = "q")] string query)
    {
        var regex = new Regex(query ?? string.Empty, RegexOptions.IgnoreCase, TimeSpan.FromSeconds(1)); // expect: injection
        return Lines.Where(l => regex.IsMatch(l));
    }

    [HttpGet("safe")]
    public IEnumerable<string> Safe([FromQuery] string query)
    {
        var regex = new Regex(Regex.Escape(query)); // expect: clean
        return Lines.Where(l => regex.IsMatch(l));
    }

    [HttpPost]
    public IActionResult Post([FromBody] FilterModel model)
    {
        return Ok(Regex.Replace(model.Text, model.Pattern, "")); // expect: injection
    }

    [HttpGet("count")]
    public int Count(string text)
    {
        return Regex.Matches(text, @"\bword\b").Count; // expect: clean
    }

    [HttpGet("header")]
    public bool Header()
    {
        string agent = HttpContext.Request.Headers["User-Agent"];
        return Regex.IsMatch(agent, "bot", RegexOptions.IgnoreCase); // expect: clean
    }

    [HttpGet("route/{name}")]
    public bool Route([FromRoute] string name) => Regex.IsMatch("x", $"^{name}$"); // expect: injection
}
