#include "automaton/ambiguity.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "syntax/unicode.h"

namespace robotscan::regexguard::internal {
namespace {

// ---- strongly connected components (iterative Tarjan) -------------------

// Returns the component id of every node; components are numbered in
// reverse topological order (a component's successors have smaller ids).
std::vector<int> StronglyConnectedComponents(
    const std::vector<std::vector<int>>& successors, int* component_count) {
  const int n = static_cast<int>(successors.size());
  std::vector<int> index(n, -1), low(n, 0), component(n, -1);
  std::vector<bool> on_stack(n, false);
  std::vector<int> stack;
  std::vector<std::pair<int, std::size_t>> call_stack;
  int next_index = 0;
  int count = 0;
  for (int root = 0; root < n; ++root) {
    if (index[root] != -1) continue;
    call_stack.emplace_back(root, 0);
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!call_stack.empty()) {
      auto& [node, edge] = call_stack.back();
      if (edge < successors[node].size()) {
        const int next = successors[node][edge++];
        if (index[next] == -1) {
          index[next] = low[next] = next_index++;
          stack.push_back(next);
          on_stack[next] = true;
          call_stack.emplace_back(next, 0);
        } else if (on_stack[next]) {
          low[node] = std::min(low[node], index[next]);
        }
        continue;
      }
      const int finished = node;
      call_stack.pop_back();
      if (!call_stack.empty()) {
        const int parent = call_stack.back().first;
        low[parent] = std::min(low[parent], low[finished]);
      }
      if (low[finished] == index[finished]) {
        while (true) {
          const int member = stack.back();
          stack.pop_back();
          on_stack[member] = false;
          component[member] = count;
          if (member == finished) break;
        }
        ++count;
      }
    }
  }
  *component_count = count;
  return component;
}

// ---- minterms -------------------------------------------------------------

// Picks a readable representative: letters, digits, space and punctuation
// before control characters and non-ASCII.
char32_t PickRepresentative(const CodePointSet& set) {
  static constexpr CodePointRange kPreferred[] = {{'a', 'z'},
                                                  {'0', '9'},
                                                  {'A', 'Z'},
                                                  {' ', ' '},
                                                  {'!', '/'},
                                                  {':', '@'},
                                                  {'[', '`'},
                                                  {'{', '~'},
                                                  {'\t', '\r'},
                                                  {0x80, 0xD7FF},
                                                  {0xE000, kMaxCodePoint},
                                                  {0, 0x7F}};
  for (const CodePointRange& preferred : kPreferred) {
    const CodePointSet hit =
        set.Intersect(CodePointSet::Range(preferred.first, preferred.last));
    if (!hit.empty()) return hit.ranges().front().first;
  }
  return set.empty() ? U'!' : set.ranges().front().first;
}

struct Minterms {
  std::vector<char32_t> representative;
  std::vector<std::vector<std::uint64_t>> accepted_by_state;  // bitsets
  std::vector<int> popularity;      // states accepting each minterm
  std::optional<char32_t> outside;  // a character no state reads
};

Minterms ComputeMinterms(const Nfa& nfa) {
  const std::size_t states = nfa.states.size();
  std::vector<char32_t> breaks{0, kMaxCodePoint + 1};
  for (const NfaState& state : nfa.states) {
    for (const CodePointRange& r : state.chars.ranges()) {
      breaks.push_back(r.first);
      breaks.push_back(r.last + 1);
    }
  }
  std::sort(breaks.begin(), breaks.end());
  breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());
  const std::size_t intervals = breaks.size() - 1;
  const std::size_t words = (states + 63) / 64;
  std::vector<std::vector<std::uint64_t>> signature(
      intervals, std::vector<std::uint64_t>(words, 0));
  for (std::size_t s = 1; s < states; ++s) {
    for (const CodePointRange& r : nfa.states[s].chars.ranges()) {
      auto begin = std::lower_bound(breaks.begin(), breaks.end(), r.first);
      for (auto it = begin; it != breaks.end() && *it <= r.last; ++it) {
        const std::size_t i = static_cast<std::size_t>(it - breaks.begin());
        signature[i][s / 64] |= std::uint64_t{1} << (s % 64);
      }
    }
  }
  Minterms result;
  std::map<std::vector<std::uint64_t>, int> ids;
  std::vector<CodePointSet> members;
  CodePointSet outside;
  for (std::size_t i = 0; i < intervals; ++i) {
    const CodePointRange range{breaks[i], breaks[i + 1] - 1};
    if (std::all_of(signature[i].begin(), signature[i].end(),
                    [](std::uint64_t w) { return w == 0; })) {
      outside.Add(range.first, range.last);
      continue;
    }
    auto [it, inserted] =
        ids.emplace(signature[i], static_cast<int>(members.size()));
    if (inserted) members.emplace_back();
    members[it->second].Add(range.first, range.last);
  }
  const std::size_t count = members.size();
  result.representative.resize(count);
  result.popularity.assign(count, 0);
  result.accepted_by_state.assign(
      states, std::vector<std::uint64_t>((count + 63) / 64, 0));
  for (const auto& [sig, id] : ids) {
    result.representative[id] = PickRepresentative(members[id]);
    for (std::size_t s = 1; s < states; ++s) {
      if (sig[s / 64] & (std::uint64_t{1} << (s % 64))) {
        result.accepted_by_state[s][id / 64] |= std::uint64_t{1} << (id % 64);
        ++result.popularity[id];
      }
    }
  }
  // Outside characters make the best failing suffix; avoid surrogates.
  const CodePointSet encodable_outside =
      outside.Intersect(CodePointSet::Range(0, 0xD7FF));
  if (!encodable_outside.empty()) {
    result.outside = PickRepresentative(encodable_outside);
  } else if (!outside.Intersect(CodePointSet::Range(0xE000, kMaxCodePoint))
                  .empty()) {
    result.outside = PickRepresentative(
        outside.Intersect(CodePointSet::Range(0xE000, kMaxCodePoint)));
  }
  return result;
}

// ---- the search -----------------------------------------------------------

using Word = std::vector<int>;  // minterm ids

struct ChainFinding {
  int length = 0;
  std::vector<std::vector<int>> components;  // states of each loop
  bool uses_search_loop = false;
};

struct WordFinding {
  std::vector<std::vector<int>> exponential_components;
  ChainFinding best_chain;         // may start at the search loop
  ChainFinding best_backtracking;  // never uses the search loop
};

// The ambiguity search over one automaton: candidate words, the graph M_w
// of each (ambiguity.h), and the attack candidates the findings make, within
// AmbiguityBudget. One search per FindAmbiguity call.
class AmbiguitySearch {
 public:
  AmbiguitySearch(const Nfa& nfa, bool search_loop,
                  const AmbiguityBudget& budget)
      : nfa_(nfa),
        search_loop_(search_loop),
        budget_(budget),
        minterms_(ComputeMinterms(nfa)),
        count_scratch_(nfa.states.size(), 0),
        local_index_(nfa.states.size(), -1) {}

  AmbiguityResult Run() {
    FindCyclicStates();
    std::vector<Word> words = CandidateWords();
    std::vector<AttackCandidate> candidates;
    std::set<std::pair<std::u32string, std::u32string>> seen;
    for (const Word& word : words) {
      if (work_ > budget_.max_work) {
        result_.budget_exhausted = true;
        break;
      }
      ++result_.words_analyzed;
      const WordFinding finding = AnalyzeWord(word);
      const std::u32string pump = Spell(word);
      for (const auto& component : finding.exponential_components) {
        std::optional<std::u32string> prefix = ShortestWordInto(component);
        if (!prefix) continue;
        AttackCandidate candidate;
        candidate.growth = SuspectedGrowth::kExponential;
        candidate.prefix = *prefix;
        candidate.pump = pump;
        candidate.loop_states.push_back(component);
        AddCandidate(std::move(candidate), &candidates, &seen);
        break;  // one per word is enough
      }
      for (const ChainFinding* chain :
           {&finding.best_backtracking, &finding.best_chain}) {
        if (chain->length < 2) continue;
        std::optional<std::u32string> prefix =
            chain->uses_search_loop ? std::u32string()
                                    : ShortestWordInto(chain->components[0]);
        if (!prefix) continue;
        AttackCandidate candidate;
        candidate.growth = SuspectedGrowth::kPolynomial;
        candidate.degree = chain->length;
        candidate.uses_search_loop = chain->uses_search_loop;
        candidate.prefix = *prefix;
        candidate.pump = pump;
        candidate.loop_states = chain->components;
        AddCandidate(std::move(candidate), &candidates, &seen);
      }
    }
    for (auto& [state, word] : ProductExponentialWitnesses()) {
      std::optional<std::u32string> prefix = ShortestWordInto({state});
      if (!prefix) continue;
      AttackCandidate candidate;
      candidate.growth = SuspectedGrowth::kExponential;
      candidate.prefix = *prefix;
      candidate.pump = Spell(word);
      candidate.loop_states.push_back({state});
      AddCandidate(std::move(candidate), &candidates, &seen);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const AttackCandidate& a, const AttackCandidate& b) {
                       return Rank(a) > Rank(b);
                     });
    // Keep the order, but spread the budget over the different loops (and
    // both causes) before spending it on variations of the same one.
    if (candidates.size() > budget_.max_candidates) {
      auto loop_key = [](const AttackCandidate& c) {
        int key = c.uses_search_loop ? -2 : -1;
        if (!c.loop_states.empty() && !c.loop_states.front().empty()) {
          key = *std::min_element(c.loop_states.front().begin(),
                                  c.loop_states.front().end()) *
                    2 +
                (c.uses_search_loop ? 1 : 0);
        }
        return key;
      };
      std::vector<AttackCandidate> kept;
      std::vector<bool> taken(candidates.size(), false);
      for (int round = 0; kept.size() < budget_.max_candidates; ++round) {
        std::set<int> keys_this_round;
        bool any = false;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          if (taken[i] || kept.size() >= budget_.max_candidates) continue;
          if (!keys_this_round.insert(loop_key(candidates[i])).second) continue;
          taken[i] = true;
          any = true;
          kept.push_back(candidates[i]);
        }
        if (!any) break;
      }
      candidates = std::move(kept);
      std::stable_sort(candidates.begin(), candidates.end(),
                       [](const AttackCandidate& x, const AttackCandidate& y) {
                         return Rank(x) > Rank(y);
                       });
    }
    for (AttackCandidate& candidate : candidates) {
      candidate.suffixes = FailingSuffixes(candidate);
    }
    result_.candidates = std::move(candidates);
    return std::move(result_);
  }

 private:
  static int Rank(const AttackCandidate& c) {
    const int growth = c.growth == SuspectedGrowth::kExponential ? 1000 : 0;
    return growth + c.degree * 10 + (c.uses_search_loop ? 0 : 5) -
           std::min<int>(static_cast<int>(c.pump.size()), 4);
  }

  void AddCandidate(AttackCandidate candidate,
                    std::vector<AttackCandidate>* candidates,
                    std::set<std::pair<std::u32string, std::u32string>>* seen) {
    if (!seen->emplace(candidate.prefix, candidate.pump).second) return;
    // The automaton ignores lookarounds and anchors, so its favourite prefix
    // may be one they forbid (`(?![0-9])` then prefix "0"): keep a spelling
    // with the rarest characters, and the empty prefix, as alternatives.
    if (!candidate.prefix.empty() && !candidate.loop_states.empty()) {
      std::optional<std::u32string> rare =
          ShortestWordInto(candidate.loop_states.front(), true);
      if (rare && *rare != candidate.prefix) {
        candidate.alternative_prefixes.push_back(*rare);
      }
      candidate.alternative_prefixes.push_back(std::u32string());
    }
    candidates->push_back(std::move(candidate));
  }

  bool Accepts(int state, int minterm) const {
    if (minterm < 0) return false;
    return (minterms_.accepted_by_state[state][minterm / 64] >>
            (minterm % 64)) &
           1;
  }

  std::u32string Spell(const Word& word) const {
    std::u32string text;
    for (const int m : word) {
      if (m >= 0) text.push_back(minterms_.representative[m]);
    }
    return text;
  }

  // The label-free graph's nontrivial components: only their states can lie
  // on a loop of any M_w.
  void FindCyclicStates() {
    const std::size_t n = nfa_.states.size();
    std::vector<std::vector<int>> successors(n);
    for (std::size_t s = 0; s < n; ++s) successors[s] = nfa_.states[s].next;
    int count = 0;
    state_component_ = StronglyConnectedComponents(successors, &count);
    std::vector<int> size(count, 0);
    for (std::size_t s = 0; s < n; ++s) ++size[state_component_[s]];
    cyclic_.assign(n, false);
    for (std::size_t s = 0; s < n; ++s) {
      const int c = state_component_[s];
      bool self_loop =
          std::binary_search(nfa_.states[s].next.begin(),
                             nfa_.states[s].next.end(), static_cast<int>(s));
      cyclic_[s] = size[c] > 1 || self_loop;
    }
    if (search_loop_) cyclic_[0] = true;
  }

  // Picks the label for entering `state`: the minterm most states accept,
  // so that the word has the best chance of also looping elsewhere.
  int PreferredMinterm(int state) const {
    int best = -1;
    for (std::size_t m = 0; m < minterms_.representative.size(); ++m) {
      if (!Accepts(state, static_cast<int>(m))) continue;
      if (best < 0 || minterms_.popularity[m] > minterms_.popularity[best]) {
        best = static_cast<int>(m);
      }
    }
    return best;
  }

  int LeastPopularMinterm(int state) const {
    int best = -1;
    for (std::size_t m = 0; m < minterms_.representative.size(); ++m) {
      if (!Accepts(state, static_cast<int>(m))) continue;
      if (best < 0 || minterms_.popularity[m] < minterms_.popularity[best]) {
        best = static_cast<int>(m);
      }
    }
    return best;
  }

  std::vector<Word> CandidateWords() {
    std::vector<Word> words;
    std::set<Word> seen;
    auto add = [&](Word word) {
      if (word.empty() || word.size() > 64) return;
      // -1 marks a position no character can enter (an empty class).
      if (std::find(word.begin(), word.end(), -1) != word.end()) return;
      if (words.size() >= budget_.max_words) return;
      if (seen.insert(word).second) words.push_back(std::move(word));
    };
    // Single characters read by some loop.
    for (std::size_t m = 0; m < minterms_.representative.size(); ++m) {
      for (std::size_t s = 1; s < nfa_.states.size(); ++s) {
        if (cyclic_[s] && Accepts(static_cast<int>(s), static_cast<int>(m))) {
          add({static_cast<int>(m)});
          break;
        }
      }
    }
    // Shortest cycle and shortest entry word of every loop.
    std::vector<bool> component_done(nfa_.states.size(), false);
    for (std::size_t s = 1; s < nfa_.states.size(); ++s) {
      if (!cyclic_[s]) continue;
      const int component = state_component_[s];
      if (component_done[component]) continue;
      component_done[component] = true;
      std::optional<Word> cycle = ShortestCycle(static_cast<int>(s));
      if (cycle && cycle->size() > 1) add(*cycle);
      // The same cycle spelled with the rarest characters: the common ones
      // may belong to a class the next loop does not read.
      std::optional<Word> rare_cycle = ShortestCycle(static_cast<int>(s), true);
      if (rare_cycle && rare_cycle->size() > 1) add(*rare_cycle);
      std::optional<Word> entry = ShortestPathWord(0, static_cast<int>(s));
      if (entry && entry->size() > 1) {
        add(*entry);
        // The literal run leading into the loop, without the loop's own
        // character: the natural pump for search-restart (`/\*.*\*/`),
        // and with the loop's least common character, which is least likely
        // to complete a match (`/*a` rather than `/**`).
        add(Word(entry->begin(), entry->end() - 1));
        Word rare = *entry;
        rare.back() = LeastPopularMinterm(static_cast<int>(s));
        add(rare);
        if (cycle) {
          Word entry_and_cycle = *entry;
          entry_and_cycle.insert(entry_and_cycle.end(), cycle->begin(),
                                 cycle->end());
          add(entry_and_cycle);
        }
      }
    }
    // Paths from one loop to a later one: when both loops also read the
    // path's characters, the path itself is the pump of a degree-2 chain
    // (`[\w.]*` ... `\.\w\w+\.\w` ... `[\w.]*` pumped with ".aa.aa").
    {
      std::vector<int> heads;  // one state per loop
      std::vector<bool> seen_component(nfa_.states.size(), false);
      for (std::size_t st = 1; st < nfa_.states.size(); ++st) {
        if (!cyclic_[st] || seen_component[state_component_[st]]) continue;
        seen_component[state_component_[st]] = true;
        heads.push_back(static_cast<int>(st));
      }
      int pairs = 0;
      for (const int from : heads) {
        for (const int to : heads) {
          if (from == to || ++pairs > 64) continue;
          std::optional<Word> path = ShortestPathWord(from, to);
          if (path && path->size() > 1) add(*path);
        }
      }
    }
    // Words that lead from the match start into a loop while the same loop
    // keeps reading them: the pumps of search-restart polynomials whose
    // loop is entered through a literal (`&quot;[a-z&;]*x` with "&quot;").
    if (search_loop_) {
      for (Word& word : SearchEntryWords()) add(std::move(word));
    }
    return words;
  }

  // For each loop S: BFS over pairs (p, q), p walking from the initial
  // state, q staying inside S, both reading the same character, until p
  // enters S. Bounded by the work budget.
  std::vector<Word> SearchEntryWords() {
    std::vector<Word> found;
    std::map<int, std::vector<int>> loops;
    for (std::size_t s = 1; s < nfa_.states.size(); ++s) {
      if (cyclic_[s]) loops[state_component_[s]].push_back(static_cast<int>(s));
    }
    const std::size_t n = nfa_.states.size();
    for (const auto& loop : loops) {
      const std::vector<int>& members = loop.second;
      std::vector<bool> inside(n, false);
      for (const int m : members) inside[m] = true;
      // Start q at every member at once: a multi-source BFS.
      std::map<std::pair<int, int>, std::pair<std::pair<int, int>, int>> parent;
      std::vector<std::pair<int, int>> queue;
      for (const int m : members) {
        parent[{0, m}] = {{-1, -1}, -1};
        queue.push_back({0, m});
      }
      bool done = false;
      for (std::size_t head = 0; head < queue.size() && !done; ++head) {
        if (++work_ > budget_.max_work || queue.size() > 20000) break;
        const auto [p, q] = queue[head];
        for (const int p2 : nfa_.states[p].next) {
          for (const int q2 : nfa_.states[q].next) {
            if (!inside[q2]) continue;
            const int m = SharedMinterm(p2, q2);
            if (m < 0 || parent.count({p2, q2}) != 0) continue;
            parent[{p2, q2}] = {{p, q}, m};
            if (inside[p2]) {
              Word word;
              for (std::pair<int, int> at{p2, q2}; at.first >= 0;) {
                const auto& link = parent[at];
                if (link.second < 0) break;
                word.push_back(link.second);
                at = link.first;
              }
              std::reverse(word.begin(), word.end());
              if (word.size() > 1) found.push_back(std::move(word));
              done = true;
              break;
            }
            queue.push_back({p2, q2});
          }
          if (done) break;
        }
      }
    }
    return found;
  }

  // The most common minterm both states read, or -1.
  int SharedMinterm(int a, int b) const {
    const auto& x = minterms_.accepted_by_state[a];
    const auto& y = minterms_.accepted_by_state[b];
    int best = -1;
    for (std::size_t w = 0; w < x.size(); ++w) {
      std::uint64_t both = x[w] & y[w];
      while (both != 0) {
        const int m = static_cast<int>(w * 64) + std::countr_zero(both);
        both &= both - 1;
        if (best < 0 || minterms_.popularity[m] > minterms_.popularity[best]) {
          best = m;
        }
      }
    }
    return best;
  }

  // BFS over the automaton (without the search loop) from `from` to `to`.
  std::optional<Word> ShortestPathWord(int from, int to) {
    std::vector<int> parent(nfa_.states.size(), -2);
    std::vector<int> queue{from};
    parent[from] = -1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int state = queue[head];
      ++work_;
      for (const int next : nfa_.states[state].next) {
        if (parent[next] != -2) continue;
        parent[next] = state;
        if (next == to) return WordAlong(parent, from, to);
        queue.push_back(next);
      }
    }
    return std::nullopt;
  }

  std::optional<Word> ShortestCycle(int state, bool rare = false) {
    const auto pick = [&](int s) {
      return rare ? LeastPopularMinterm(s) : PreferredMinterm(s);
    };
    std::vector<int> parent(nfa_.states.size(), -2);
    std::vector<int> queue;
    for (const int next : nfa_.states[state].next) {
      if (next == state) return Word{pick(state)};
      if (parent[next] == -2 &&
          state_component_[next] == state_component_[state]) {
        parent[next] = state;
        queue.push_back(next);
      }
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int current = queue[head];
      ++work_;
      for (const int next : nfa_.states[current].next) {
        if (next == state) {
          Word word = WordAlong(parent, state, current, rare);
          word.push_back(pick(state));
          return word;
        }
        if (parent[next] != -2 ||
            state_component_[next] != state_component_[state]) {
          continue;
        }
        parent[next] = current;
        queue.push_back(next);
      }
    }
    return std::nullopt;
  }

  // The word read along a BFS parent chain; `rare` spells each step with
  // its least common character instead of the most common one.
  Word WordAlong(const std::vector<int>& parent, int from, int to,
                 bool rare = false) const {
    Word word;
    for (int s = to; s != from && s >= 0; s = parent[s]) {
      word.push_back(rare ? LeastPopularMinterm(s) : PreferredMinterm(s));
    }
    std::reverse(word.begin(), word.end());
    return word;
  }

  // Shortest word from the initial state to any of `targets` (no search
  // loop: the prefix must lead there from the match start).
  std::optional<std::u32string> ShortestWordInto(
      const std::vector<int>& targets, bool rare = false) {
    std::vector<bool> is_target(nfa_.states.size(), false);
    for (const int t : targets) {
      if (t == 0) return std::u32string();
      is_target[t] = true;
    }
    std::vector<int> parent(nfa_.states.size(), -2);
    std::vector<int> queue{0};
    parent[0] = -1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int state = queue[head];
      for (const int next : nfa_.states[state].next) {
        if (parent[next] != -2) continue;
        parent[next] = state;
        if (is_target[next]) {
          const Word word = WordAlong(parent, 0, next, rare);
          if (std::find(word.begin(), word.end(), -1) != word.end()) {
            return std::nullopt;
          }
          return Spell(word);
        }
        queue.push_back(next);
      }
    }
    return std::nullopt;
  }

  // All states reached from `state` by reading `word`, with path counts
  // saturated at 2.
  std::vector<std::pair<int, int>> Row(int state, const Word& word) {
    std::vector<std::pair<int, int>> frontier{{state, 1}};
    std::vector<int> touched;
    for (const int m : word) {
      touched.clear();
      for (const auto& [from, count] : frontier) {
        auto bump = [&](int to, int ways) {
          if (count_scratch_[to] == 0) touched.push_back(to);
          count_scratch_[to] = std::min(2, count_scratch_[to] + ways);
        };
        const NfaState& source = nfa_.states[from];
        for (std::size_t e = 0; e < source.next.size(); ++e) {
          ++work_;
          const int to = source.next[e];
          if (Accepts(to, m)) bump(to, count * source.multiplicity[e]);
        }
        if (from == 0 && search_loop_) bump(0, count);
      }
      frontier.clear();
      for (const int to : touched) {
        frontier.emplace_back(to, count_scratch_[to]);
        count_scratch_[to] = 0;
      }
      if (frontier.empty()) break;
    }
    return frontier;
  }

  WordFinding AnalyzeWord(const Word& word) {
    // Discover M_w from the cyclic states.
    std::vector<int> nodes;
    for (std::size_t s = 0; s < nfa_.states.size(); ++s) {
      if (cyclic_[s]) {
        local_index_[s] = static_cast<int>(nodes.size());
        nodes.push_back(static_cast<int>(s));
      }
    }
    std::vector<std::vector<std::pair<int, int>>> edges;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes.size() > budget_.max_graph_nodes || work_ > budget_.max_work) {
        result_.budget_exhausted = true;
        break;
      }
      std::vector<std::pair<int, int>> row = Row(nodes[i], word);
      for (auto& [to, count] : row) {
        if (local_index_[to] < 0) {
          local_index_[to] = static_cast<int>(nodes.size());
          nodes.push_back(to);
        }
        to = local_index_[to];
      }
      edges.push_back(std::move(row));
    }
    edges.resize(nodes.size());
    for (const int s : nodes) local_index_[s] = -1;

    std::vector<std::vector<int>> successors(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      for (const auto& [to, count] : edges[i]) successors[i].push_back(to);
    }
    int count = 0;
    const std::vector<int> component =
        StronglyConnectedComponents(successors, &count);
    std::vector<int> size(count, 0), internal(count, 0);
    std::vector<std::vector<int>> members(count);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      ++size[component[i]];
      members[component[i]].push_back(nodes[i]);
      for (const auto& [to, multiplicity] : edges[i]) {
        if (component[to] == component[i])
          internal[component[i]] += multiplicity;
      }
    }
    WordFinding finding;
    std::vector<bool> nontrivial(count, false), is_search(count, false);
    for (int c = 0; c < count; ++c) {
      nontrivial[c] = internal[c] > 0;
      if (internal[c] > size[c]) {
        finding.exponential_components.push_back(members[c]);
      }
    }
    if (search_loop_ && !nodes.empty() && nodes[0] == 0) {
      is_search[component[0]] = true;
    }
    // Longest chain of nontrivial components; ids are reverse topological,
    // so successors are always finished first.
    std::vector<std::vector<int>> component_successors(count);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      for (const auto& [to, multiplicity] : edges[i]) {
        if (component[to] != component[i]) {
          component_successors[component[i]].push_back(component[to]);
        }
      }
    }
    for (const bool count_search : {false, true}) {
      std::vector<int> best(count, 0), next(count, -1);
      for (int c = 0; c < count; ++c) {
        for (const int d : component_successors[c]) {
          if (best[d] > best[c]) {
            best[c] = best[d];
            next[c] = d;
          }
        }
        if (nontrivial[c] && (count_search || !is_search[c])) ++best[c];
      }
      int start = -1;
      for (int c = 0; c < count; ++c) {
        if (start < 0 || best[c] > best[start]) start = c;
      }
      ChainFinding& chain =
          count_search ? finding.best_chain : finding.best_backtracking;
      if (start < 0) continue;
      chain.length = best[start];
      for (int c = start; c >= 0; c = next[c]) {
        if (!nontrivial[c] || (!count_search && is_search[c])) continue;
        if (is_search[c]) {
          chain.uses_search_loop = true;
          continue;
        }
        chain.components.push_back(members[c]);
      }
      if (chain.components.empty()) chain.length = 0;
    }
    if (!finding.best_chain.uses_search_loop) {
      finding.best_chain.length = 0;  // same as best_backtracking
    }
    return finding;
  }

  // EDA by the pair construction: inside one loop (a strongly connected
  // set S of the automaton), the product S x S has a component holding both
  // a diagonal pair (q, q) and a pair (p, r) with p != r exactly when two
  // different paths lead from q back to q on one word. Returns (q, word)
  // per loop where that happens. Finds witnesses of any length, which the
  // candidate words above can miss (e.g. "aa." for `([a-z][a-z]?\.)*`).
  std::vector<std::pair<int, Word>> ProductExponentialWitnesses() {
    std::vector<std::pair<int, Word>> witnesses;
    std::map<int, std::vector<int>> members;
    for (std::size_t s = 1; s < nfa_.states.size(); ++s) {
      if (cyclic_[s])
        members[state_component_[s]].push_back(static_cast<int>(s));
    }
    for (const auto& member : members) {
      // Named, not a structured binding: lambdas below capture it.
      const std::vector<int>& states = member.second;
      const std::size_t n = states.size();
      if (n < 2 || n * n > budget_.max_graph_nodes) continue;
      if (work_ > budget_.max_work) {
        result_.budget_exhausted = true;
        break;
      }
      std::map<int, int> local;
      for (std::size_t i = 0; i < n; ++i)
        local[states[i]] = static_cast<int>(i);
      std::vector<std::vector<int>> inside(n);  // successors within S
      for (std::size_t i = 0; i < n; ++i) {
        for (const int next : nfa_.states[states[i]].next) {
          auto it = local.find(next);
          if (it != local.end()) inside[i].push_back(it->second);
        }
      }
      auto shared_minterm = [&](int a, int b) {
        return SharedMinterm(states[a], states[b]);
      };
      std::vector<std::vector<int>> successors(n * n);
      bool over_budget = false;
      for (std::size_t i = 0; i < n && !over_budget; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          for (const int a : inside[i]) {
            for (const int b : inside[j]) {
              if (++work_ > budget_.max_work) {
                over_budget = true;
                break;
              }
              if (a == b || shared_minterm(a, b) >= 0) {
                successors[i * n + j].push_back(static_cast<int>(a * n + b));
              }
            }
          }
        }
      }
      if (over_budget) {
        result_.budget_exhausted = true;
        break;
      }
      int count = 0;
      const std::vector<int> product_component =
          StronglyConnectedComponents(successors, &count);
      std::vector<int> diagonal(count, -1), off_diagonal(count, -1);
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          const int node = static_cast<int>(i * n + j);
          int& slot = i == j ? diagonal[product_component[node]]
                             : off_diagonal[product_component[node]];
          if (slot < 0) slot = node;
        }
      }
      for (int c = 0; c < count; ++c) {
        if (diagonal[c] < 0 || off_diagonal[c] < 0) continue;
        // Word: (q,q) -> (p,r) -> (q,q) inside component c.
        auto path = [&](int from, int to) {
          std::vector<int> parent(n * n, -2);
          std::vector<int> queue{from};
          parent[from] = -1;
          for (std::size_t head = 0; head < queue.size(); ++head) {
            const int node = queue[head];
            for (const int next : successors[node]) {
              if (parent[next] != -2 || product_component[next] != c) continue;
              parent[next] = node;
              queue.push_back(next);
            }
          }
          Word word;
          if (parent[to] == -2) return word;
          std::vector<int> nodes;
          for (int x = to; x != from; x = parent[x]) nodes.push_back(x);
          std::reverse(nodes.begin(), nodes.end());
          for (const int x : nodes) {
            const int a = x / static_cast<int>(n), b = x % static_cast<int>(n);
            word.push_back(shared_minterm(a, b));
          }
          return word;
        };
        Word there = path(diagonal[c], off_diagonal[c]);
        Word back = path(off_diagonal[c], diagonal[c]);
        if (there.empty() || back.empty()) continue;
        there.insert(there.end(), back.begin(), back.end());
        if (std::find(there.begin(), there.end(), -1) != there.end()) continue;
        const int q = states[diagonal[c] / static_cast<int>(n)];
        witnesses.emplace_back(q, std::move(there));
        break;
      }
    }
    return witnesses;
  }

  // States reachable from the initial state on `text`.
  std::vector<int> Simulate(const std::u32string& text,
                            bool keep_restarting) const {
    std::vector<int> current{0};
    std::vector<bool> in_next(nfa_.states.size(), false);
    for (const char32_t c : text) {
      std::vector<int> next;
      for (const int from : current) {
        for (const int to : nfa_.states[from].next) {
          if (!in_next[to] && nfa_.states[to].chars.Contains(c)) {
            in_next[to] = true;
            next.push_back(to);
          }
        }
      }
      if (keep_restarting && !in_next[0]) {
        in_next[0] = true;
        next.push_back(0);
      }
      for (const int s : next) in_next[s] = false;
      current = std::move(next);
    }
    return current;
  }

  // Suffix characters after which the automaton can accept nowhere, or as
  // few states as possible stay alive: they make every match attempt fail
  // only after exploring all the paths the pump created.
  std::vector<std::u32string> FailingSuffixes(const AttackCandidate& c) const {
    std::u32string text = c.prefix + c.pump + c.pump;
    const std::vector<int> alive = Simulate(text, search_loop_);
    // Scores every character by what stays alive after it from `from`:
    // accepting states weigh most (the match would succeed), then the
    // number of states (fewer is a quicker, cleaner failure).
    auto rank = [&](const std::vector<int>& from) {
      std::vector<std::tuple<long, char32_t, std::vector<int>>> scored;
      auto score = [&](char32_t ch) {
        std::set<int> after;
        for (const int state : from) {
          for (const int to : nfa_.states[state].next) {
            if (nfa_.states[to].chars.Contains(ch)) after.insert(to);
          }
        }
        long value = 0;
        for (const int state : after) {
          value += nfa_.accepting[state] ? 100000 : 1;
        }
        scored.emplace_back(value, ch,
                            std::vector<int>(after.begin(), after.end()));
      };
      if (minterms_.outside) score(*minterms_.outside);
      for (const char32_t rep : minterms_.representative) score(rep);
      std::stable_sort(scored.begin(), scored.end(),
                       [](const auto& x, const auto& y) {
                         return std::get<0>(x) < std::get<0>(y);
                       });
      return scored;
    };
    const auto scored = rank(alive);
    std::vector<std::u32string> suffixes;
    auto add = [&](std::u32string suffix) {
      if (std::find(suffixes.begin(), suffixes.end(), suffix) ==
          suffixes.end()) {
        suffixes.push_back(std::move(suffix));
      }
    };
    for (const auto& [value, ch, after] : scored) {
      if (suffixes.size() >= 2) break;
      if (std::find(c.pump.begin(), c.pump.end(), ch) != c.pump.end()) {
        continue;  // reading more pump is not a way to fail
      }
      add(std::u32string(1, ch));
    }
    // When no single character kills every path, two can: `;` ends the
    // loop of `([^;]+;?)+$` and `!` then fails the next iteration. Try the
    // best few first characters and keep the pair leaving the least alive.
    if (!scored.empty() && !std::get<2>(scored.front()).empty()) {
      long best_value = std::get<0>(scored.front());
      std::u32string best_pair;
      int tried = 0;
      for (const auto& [value, ch, after] : scored) {
        if (std::find(c.pump.begin(), c.pump.end(), ch) != c.pump.end()) {
          continue;
        }
        if (++tried > 6) break;
        const auto second = rank(after);
        if (!second.empty() && std::get<0>(second.front()) < best_value) {
          best_value = std::get<0>(second.front());
          best_pair = std::u32string{ch, std::get<1>(second.front())};
        }
      }
      if (!best_pair.empty()) add(best_pair);
    }
    for (const char32_t fallback : {U'!', U'\n'}) {
      if (suffixes.size() >= 4) break;
      add(std::u32string(1, fallback));
    }
    return suffixes;
  }

  const Nfa& nfa_;
  bool search_loop_;
  AmbiguityBudget budget_;
  Minterms minterms_;
  std::vector<int> count_scratch_;
  std::vector<int> local_index_;
  std::vector<int> state_component_;
  std::vector<bool> cyclic_;
  std::size_t work_ = 0;
  AmbiguityResult result_;
};

}  // namespace

AmbiguityResult FindAmbiguity(const Nfa& nfa, bool search_loop,
                              const AmbiguityBudget& budget) {
  AmbiguitySearch search(nfa, search_loop, budget);
  return search.Run();
}

}  // namespace robotscan::regexguard::internal
