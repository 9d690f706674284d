// ASP.NET Core controller of a small search service.
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc;

public class SearchController : Controller
{
    public IActionResult Index()
    {
        string q = Request.Query["q"];
        var re = new Regex(q, RegexOptions.IgnoreCase); // expect: injection
        var safe = new Regex("^" + Regex.Escape(q) + "$"); // expect: clean
        return Ok(re.ToString() + safe);
    }

    [HttpGet("find")]
    public IActionResult Find([FromQuery] string name)
    {
        if (Regex.IsMatch("subject", name)) // expect: injection
        {
            return Ok();
        }
        return NotFound();
    }

    public IActionResult Interpolated()
    {
        var prefix = Request.Form["prefix"].ToString();
        var matches = Regex.Matches("text", $"^{prefix}"); // expect: injection
        return Ok(matches.Count);
    }

    public IActionResult Subject()
    {
        return Ok(Regex.Replace(Request.Query["s"], @"\s+", " ")); // expect: clean
    }

    public IActionResult Reassigned()
    {
        var v = Regex.Escape(Request.Query["v"]);
        v = Request.Query["raw"];
        return Ok(Regex.Split("a,b", v)); // expect: injection
    }

    public IActionResult Sanitised()
    {
        string v = Request.Query["v"];
        v = Regex.Escape(v);
        return Ok(Regex.Split("a,b", v)); // expect: clean
    }

    public IActionResult Other()
    {
        string v = "fixed";
        return Ok(new Regex(v)); // expect: clean
    }

    private static Regex Build(string p) => new Regex(p); // expect: injection (reached from Caller, another method)

    public IActionResult Caller() => Ok(Build(Request.Query["p"]));

    public IActionResult Numeric()
    {
        int n = int.Parse(Request.Query["n"]);
        return Ok(new Regex("a{1," + n + "}")); // expect: clean
    }

    public IActionResult Header()
    {
        foreach (var header in Request.Headers)
        {
            var pattern = header.Value.ToString();
            if (Regex.IsMatch("x", pattern)) // expect: injection
            {
                return BadRequest();
            }
        }
        return Ok();
    }

    public IActionResult Route([FromRoute] int id)
    {
        return Ok(Regex.IsMatch(id.ToString(), "^[0-9]+$")); // expect: clean
    }
}
