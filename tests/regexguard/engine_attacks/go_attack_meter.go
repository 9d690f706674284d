// go_attack_meter: what an attack costs Go's regexp (Debian's Go), for the
// EngineAttacks judge (engine_attacks_test.py). regexguard says the go
// dialect is never super-linear (RE2 semantics); this meter lets the judge
// check that on Go's own engine with every attack the corpus has.
//
// regexp.Compile with the pattern's flags as a (?flags) prefix (i, m, s; x
// does not exist in Go and is refused as the engine would), then
// FindStringIndex for a search, or FindAllStringIndex with the g flag, timed
// as the matching OS thread's CPU time (the goroutine is locked to its
// thread; CLOCK_THREAD_CPUTIME_ID). Built by the test with `go build`.
//
// Protocol, one JSON line each way (as pcre2_attack_meter.cc):
//
//	{"op": "compile", "pattern", "flags", "attack"} -> {"unit":
//	"cpu-seconds"} or {"error": "does not compile: <regexp error>"};
//	{"op": "measure", "n": [...], "runs": k} -> {"costs": [...], "lengths":
//	[...]}, each the least of k runs (no more once one costs over 0.5 s).
package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID

func cpuSeconds() float64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime,
		uintptr(unsafe.Pointer(&ts)), 0)
	return float64(ts.Sec) + float64(ts.Nsec)/1e9
}

type attackText struct {
	Prefix string `json:"prefix"`
	Pump   string `json:"pump"`
	Suffix string `json:"suffix"`
}

type request struct {
	Op      string     `json:"op"`
	Pattern string     `json:"pattern"`
	Flags   string     `json:"flags"`
	Attack  attackText `json:"attack"`
	N       []int      `json:"n"`
	Runs    int        `json:"runs"`
}

type meter struct {
	re     *regexp.Regexp
	global bool
	attack attackText
}

func (m *meter) compile(r request) map[string]interface{} {
	m.re = nil
	inline := ""
	for _, c := range r.Flags {
		switch c {
		case 'i', 'm', 's':
			inline += string(c)
		case 'x':
			return map[string]interface{}{
				"error": "does not compile: Go has no x (extended) flag"}
		}
	}
	pattern := r.Pattern
	if inline != "" {
		pattern = "(?" + inline + ")" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return map[string]interface{}{"error": "does not compile: " + err.Error()}
	}
	m.re = re
	m.global = strings.ContainsRune(r.Flags, 'g')
	m.attack = r.Attack
	return map[string]interface{}{"unit": "cpu-seconds"}
}

func (m *meter) cost(subject string) float64 {
	start := cpuSeconds()
	if m.global {
		m.re.FindAllStringIndex(subject, -1)
	} else {
		m.re.FindStringIndex(subject)
	}
	return cpuSeconds() - start
}

func (m *meter) measure(r request) map[string]interface{} {
	costs := []float64{}
	lengths := []int{}
	for _, n := range r.N {
		if n < 0 {
			n = 0
		}
		subject := m.attack.Prefix + strings.Repeat(m.attack.Pump, n) +
			m.attack.Suffix
		least := math.Inf(1)
		runs := r.Runs
		if runs < 1 {
			runs = 1
		}
		for i := 0; i < runs; i++ {
			spent := m.cost(subject)
			least = math.Min(least, spent)
			if spent > 0.5 {
				break
			}
		}
		costs = append(costs, least)
		// Lengths in code points, as the other meters count characters.
		lengths = append(lengths, len([]rune(subject)))
	}
	return map[string]interface{}{"costs": costs, "lengths": lengths}
}

func main() {
	runtime.LockOSThread()
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	m := &meter{}
	for {
		line, err := in.ReadString('\n')
		if strings.TrimSpace(line) != "" {
			var r request
			var reply map[string]interface{}
			if jerr := json.Unmarshal([]byte(line), &r); jerr != nil {
				reply = map[string]interface{}{"error": "bad request line: " + jerr.Error()}
			} else if r.Op == "compile" {
				reply = m.compile(r)
			} else if r.Op == "measure" && m.re != nil {
				reply = m.measure(r)
			} else {
				reply = map[string]interface{}{"error": "bad request"}
			}
			encoded, _ := json.Marshal(reply)
			out.Write(encoded)
			out.WriteString("\n")
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}
