// Held-out set 2: written before the finder changes of issue 27's follow-up,
// measured once after them, never tuned on (README.md).
package com.example

import io.ktor.server.application.*
import io.ktor.server.response.*
import io.ktor.server.routing.*
import javax.servlet.http.HttpServletRequest
import org.springframework.web.bind.annotation.*

fun Route.searchRoutes() {
    get("/search") {
        val q = call.parameters["q"] ?: return@get
        val rx = q.toRegex(RegexOption.IGNORE_CASE) // expect: injection
        call.respondText(rx.pattern)
    }
    get("/literal") {
        val q = call.parameters["q"] ?: ""
        call.respondText(Regex(Regex.escape(q)).pattern) // expect: clean
    }
    get("/count") {
        val n = call.parameters["n"]?.toIntOrNull() ?: 3
        call.respondText(Regex("\\d{$n}").pattern) // expect: clean
    }
    get("/header") {
        val filter = call.request.headers["X-Filter"].orEmpty()
        call.respondText(Regex("^$filter").pattern) // expect: injection
    }
}

@RestController
class Heldout2Controller {
    @GetMapping("/tags")
    fun tags(@RequestParam tags: List<String>): String =
        Regex(tags.joinToString("|")).pattern // expect: injection

    @GetMapping("/names")
    fun names(request: HttpServletRequest): List<Regex> {
        val names = request.getParameterValues("n").toList()
        return names.map { Regex(it) } // expect: injection
    }

    @GetMapping("/valid")
    fun valid(@RequestParam code: String): Boolean =
        Regex("^[A-Z]{3}$").matches(code) // expect: clean
}
