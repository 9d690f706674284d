// Spring and Ktor handlers of a small search service, in Kotlin. Written
// with the Kotlin rules, before they were first run on it.
package com.example.web

import io.ktor.server.application.call
import io.ktor.server.routing.Route
import io.ktor.server.routing.get
import java.util.regex.Pattern
import javax.servlet.http.HttpServletRequest
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

@RestController
class SearchController {
    @GetMapping("/users")
    fun users(@RequestParam name: String): List<String> {
        val re = Regex(name, RegexOption.IGNORE_CASE) // expect: injection
        return USERS.filter { re.containsMatchIn(it) }
    }

    @GetMapping("/users/safe")
    fun usersSafe(@RequestParam name: String): List<String> {
        val re = Regex(Regex.escape(name)) // expect: clean
        return USERS.filter { re.containsMatchIn(it) }
    }

    @GetMapping("/prefix")
    fun prefix(request: HttpServletRequest): Boolean {
        val p = request.getParameter("p") ?: ""
        return "^$p.*".toRegex().matches("abc") // expect: injection
    }

    @GetMapping("/codes")
    fun codes(@RequestParam code: String): Boolean {
        return Regex("[A-Z]{3}-\\d{4}").matches(code) // expect: clean
    }

    @GetMapping("/split")
    fun split(request: HttpServletRequest): List<String> {
        val sep = request.getParameter("sep")
        return "a,b".split(Pattern.compile(sep)) // expect: injection
    }

    @GetMapping("/digits")
    fun digits(request: HttpServletRequest): Boolean {
        val n = request.getParameter("n").toInt()
        return Regex("\\d{1,$n}").matches("123") // expect: clean
    }

    fun sameName(): Regex {
        val name = "fixed"
        return Regex(name) // expect: clean
    }

    fun reassigned(request: HttpServletRequest): Regex {
        var v = Regex.escape(request.getParameter("v"))
        v = request.getParameter("raw")
        return v.toRegex() // expect: injection
    }

    fun sanitised(request: HttpServletRequest): Regex {
        var v = request.getParameter("v")
        v = Regex.escape(v)
        return v.toRegex() // expect: clean
    }
}

fun Route.ktorSearch() {
    get("/ktor") {
        val q = call.request.queryParameters["q"] ?: ""
        val re = Regex("(?i)${q}") // expect: injection
        call.respondText(re.pattern)
    }
}
