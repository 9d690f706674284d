// First held-out set (frozen finder 15a748f, measured once), seen since:
// a development file now (tests/data/regex_injection/README.md).
package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"
)

func listHandler(w http.ResponseWriter, req *http.Request) {
	filter := strings.TrimSpace(req.URL.Query().Get("filter"))
	if filter == "" {
		return
	}
	re, err := regexp.Compile("(?i)" + filter) // expect: injection
	fmt.Fprintln(w, re, err)
}

func echoHandler(c echo.Context) error {
	p := c.QueryParam("p")
	re := regexp.MustCompile(regexp.QuoteMeta(p) + "$") // expect: clean
	return c.String(http.StatusOK, re.String())
}

func pathHandler(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	ok, _ := regexp.MatchString("^"+name, "x") // expect: injection
	fmt.Fprintln(w, ok)
}

func staticHandler(w http.ResponseWriter, r *http.Request) {
	ok, _ := regexp.MatchString(`^\w+$`, r.URL.Path) // expect: clean
	fmt.Fprintln(w, ok)
}

func headerHandler(w http.ResponseWriter, r *http.Request) {
	for _, v := range r.Header["X-Filter"] {
		fmt.Fprintln(w, regexp.MustCompile(v)) // expect: injection
	}
}
