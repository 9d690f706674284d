// HTTP handlers of a small search service (net/http, gorilla/mux, gin).
package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/gorilla/mux"
)

func search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	re, err := regexp.Compile(q) // expect: injection
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	safe := regexp.MustCompile("^" + regexp.QuoteMeta(q) + "$") // expect: clean
	if ok, _ := regexp.MatchString(r.FormValue("p"), "x"); ok { // expect: injection
		fmt.Fprintln(w, re.String(), safe.String())
	}
}

func constant(w http.ResponseWriter, r *http.Request) {
	re := regexp.MustCompile(`^[a-z]+$`) // expect: clean
	fmt.Fprintln(w, re.MatchString(r.FormValue("name")))
}

func ginHandler(c *gin.Context) {
	pattern := c.Query("pattern")
	expr := fmt.Sprintf("(?i)%s", pattern)
	re := regexp.MustCompile(expr) // expect: injection
	c.String(http.StatusOK, re.String())
}

func reassigned(w http.ResponseWriter, r *http.Request) {
	v := regexp.QuoteMeta(r.FormValue("v"))
	v = r.FormValue("raw")
	fmt.Fprintln(w, regexp.MustCompile(v).String()) // expect: injection
}

func sanitised(w http.ResponseWriter, r *http.Request) {
	v := r.FormValue("v")
	v = regexp.QuoteMeta(v)
	fmt.Fprintln(w, regexp.MustCompile(v).String()) // expect: clean
}

func other(w http.ResponseWriter) {
	v := "fixed"
	fmt.Fprintln(w, regexp.MustCompile(v).String()) // expect: clean
}

func compile(p string) *regexp.Regexp {
	return regexp.MustCompile(p) // expect: injection (reached from caller, another function)
}

func caller(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintln(w, compile(r.URL.Query().Get("p")).String())
}

func numeric(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.FormValue("n"))
	fmt.Fprintln(w, regexp.MustCompile(fmt.Sprintf("a{1,%d}", n)).String()) // expect: clean
}

func muxHandler(w http.ResponseWriter, r *http.Request) {
	vars := mux.Vars(r)
	re, _ := regexp.Compile(vars["name"]) // expect: injection
	fmt.Fprintln(w, re)
}

func subject(w http.ResponseWriter, r *http.Request) {
	ok, _ := regexp.MatchString(`^\d+$`, r.FormValue("id")) // expect: clean
	fmt.Fprintln(w, ok)
}
