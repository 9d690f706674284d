// Held-out set 2: written before the finder changes of issue 27's follow-up,
// measured once after them, never tuned on (README.md).
package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"

	"github.com/gin-gonic/gin"
)

var sorts = map[string]string{"asc": "^a", "desc": "^z"}

type server struct {
	pattern string
}

func filterHandler(w http.ResponseWriter, r *http.Request) {
	f := r.Header.Get("X-Filter")
	re, err := regexp.Compile(f) // expect: injection
	fmt.Fprintln(w, re, err)
}

func tagsHandler(w http.ResponseWriter, r *http.Request) {
	tags := r.URL.Query()["tag"]
	for _, t := range tags {
		fmt.Fprintln(w, regexp.MustCompile(t)) // expect: injection
	}
}

func ginHandler(c *gin.Context) {
	q, ok := c.GetQuery("q")
	if !ok {
		return
	}
	c.String(http.StatusOK, regexp.MustCompile(q).String()) // expect: injection
}

func (s *server) load(r *http.Request) {
	s.pattern = r.FormValue("p")
}

func (s *server) match(text string) bool {
	return regexp.MustCompile(s.pattern).MatchString(text) // expect: injection
}

func quotedHandler(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintln(w, regexp.MustCompile("^"+regexp.QuoteMeta(r.FormValue("p")))) // expect: clean
}

func sortHandler(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintln(w, regexp.MustCompile(sorts[r.FormValue("o")])) // expect: clean
}

func idHandler(w http.ResponseWriter, r *http.Request) {
	ok, _ := regexp.MatchString(`^\d+$`, r.FormValue("id")) // expect: clean
	fmt.Fprintln(w, ok)
}

func countHandler(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.FormValue("n"))
	fmt.Fprintln(w, regexp.MustCompile(fmt.Sprintf(`\d{%d}`, n))) // expect: clean
}
