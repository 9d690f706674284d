# ruby_attack_meter: what an attack costs Ruby's Onigmo (Debian's Ruby 3.1,
# which has no match cache: Ruby 3.2 added the memoization that makes most
# backtracking linear), for the EngineAttacks judge (engine_attacks_test.py),
# which decides from these costs whether the attack is super-linear.
#
# Regexp.new with the pattern's flags (i IGNORECASE, x EXTENDED; s is
# Ruby's MULTILINE, the dot-all mode; m adds nothing, Ruby's ^ and $ always
# match at lines), then match? for a search, or with the g flag every match
# to the end (as scan and gsub go), timed as this thread's CPU time.
#
# Protocol, one JSON line each way (as pcre2_attack_meter.cc):
#   {"op": "compile", "pattern", "flags", "attack"} -> {"unit": "cpu-seconds"}
#   or {"error": "does not compile: <RegexpError message>"};
#   {"op": "measure", "n": [...], "runs": k} -> {"costs": [...], "lengths":
#   [...]}, each the least of k runs (no more runs once one costs over
#   0.5 s), or {"error"}.
require 'json'

# Onigmo's warnings about the patterns ("character class has ']' without
# escape") are not the meter's business.
$VERBOSE = nil

$stdout.sync = true

def cpu_seconds
  Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID)
end

class Attack
  def initialize(request)
    flags = request['flags'] || ''
    options = 0
    options |= Regexp::IGNORECASE if flags.include?('i')
    options |= Regexp::EXTENDED if flags.include?('x')
    options |= Regexp::MULTILINE if flags.include?('s')
    @regexp = Regexp.new(request['pattern'], options)
    @global = flags.include?('g')
    attack = request['attack'] || {}
    @prefix = attack['prefix'] || ''
    @pump = attack['pump'] || ''
    @suffix = attack['suffix'] || ''
  end

  def cost(subject)
    start = cpu_seconds
    if @global
      position = 0
      while position <= subject.length
        match = @regexp.match(subject, position)
        break if match.nil?
        finish = match.end(0)
        position = finish > match.begin(0) ? finish : finish + 1
      end
    else
      @regexp.match?(subject)
    end
    cpu_seconds - start
  end

  def measure(sizes, runs)
    costs = []
    lengths = []
    sizes.each do |n|
      subject = @prefix + @pump * n + @suffix
      least = Float::INFINITY
      [runs, 1].max.times do
        spent = cost(subject)
        least = [least, spent].min
        break if spent > 0.5
      end
      costs << least
      lengths << subject.length
    end
    { 'costs' => costs, 'lengths' => lengths }
  end
end

attack = nil
$stdin.each_line do |line|
  next if line.strip.empty?
  reply =
    begin
      request = JSON.parse(line)
      case request['op']
      when 'compile'
        begin
          attack = Attack.new(request)
          { 'unit' => 'cpu-seconds' }
        rescue RegexpError, ArgumentError, EncodingError => e
          attack = nil
          { 'error' => "does not compile: #{e.message}" }
        end
      when 'measure'
        if attack.nil?
          { 'error' => 'bad request' }
        else
          begin
            attack.measure(request['n'], request['runs'] || 1)
          rescue StandardError, SystemStackError, NoMemoryError => e
            { 'error' => "#{e.class}: #{e.message}" }
          end
        end
      else
        { 'error' => 'bad request' }
      end
    rescue JSON::ParserError => e
      { 'error' => "bad request line: #{e.message}" }
    end
  puts JSON.generate(reply)
end
