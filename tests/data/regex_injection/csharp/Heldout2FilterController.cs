// Held-out set 2: written before the finder changes of issue 27's follow-up,
// measured once after them, never tuned on (README.md).
using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc;

[ApiController]
[Route("api/filter")]
public class Heldout2FilterController : ControllerBase
{
    private static readonly Dictionary<string, string> Orders = new()
    {
        ["asc"] = "^a",
        ["desc"] = "^z",
    };

    private string _pattern = ".*";

    [HttpGet("header")]
    public bool Header([FromHeader(Name = "X-Filter")] string filter, string text)
    {
        return Regex.IsMatch(text, filter); // expect: injection
    }

    [HttpGet("prefix")]
    public string Prefix()
    {
        var q = Request.Query["q"].ToString();
        return new Regex($"^{q}", RegexOptions.IgnoreCase).ToString(); // expect: injection
    }

    [HttpPost("load")]
    public void Load()
    {
        _pattern = Request.Form["p"];
    }

    [HttpGet("apply")]
    public bool Apply(string text)
    {
        return new Regex(_pattern).IsMatch(text); // expect: injection
    }

    [HttpGet("terms")]
    public int Terms()
    {
        var terms = Request.Query["t"].ToArray();
        return terms.Select(t => new Regex(t)).Count(); // expect: injection
    }

    [HttpGet("escaped")]
    public bool Escaped([FromQuery] string q, string text)
    {
        return Regex.IsMatch(text, "^" + Regex.Escape(q)); // expect: clean
    }

    [HttpPost("squash")]
    public string Squash()
    {
        return Regex.Replace(Request.Form["text"], @"\s+", " "); // expect: clean
    }

    [HttpGet("order")]
    public bool Order([FromQuery] string order, string text)
    {
        return new Regex(Orders[order]).IsMatch(text); // expect: clean
    }
}
