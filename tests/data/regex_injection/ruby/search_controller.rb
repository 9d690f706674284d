# Rails controller and a Sinatra route of a small search service.
class SearchController < ApplicationController
  def index
    term = params[:q]
    @users = User.all.select { |u| u.name =~ Regexp.new(term, Regexp::IGNORECASE) } # expect: injection
  end

  def safe
    term = Regexp.escape(params[:q])
    @users = User.all.select { |u| u.name =~ /#{term}/i } # expect: clean
  end

  def interpolated
    @posts = Post.all.select { |p| p.title.match?(/\A#{params[:prefix]}/) } # expect: injection
  end

  def union
    words = params[:words].to_s.split(",")
    pattern = Regexp.union(words)
    @hits = Post.all.select { |p| p.body =~ Regexp.new(pattern) } # expect: clean
  end

  def numeric
    n = params[:n].to_i
    re = Regexp.new("\\A\\d{1,#{n}}\\z") # expect: clean
    render plain: re.source
  end

  def reassigned
    v = Regexp.escape(params[:v])
    v = params[:raw]
    render plain: Regexp.compile(v).source # expect: injection
  end

  def sanitised
    v = params[:v]
    v = Regexp.quote(v)
    render plain: Regexp.new("^" + v).source # expect: clean
  end

  def other
    term = "fixed"
    render plain: Regexp.new(term).source # expect: clean
  end

  def constant
    if params[:id] =~ /\A\d+\z/ # expect: clean
      render plain: "ok"
    end
  end

  def header
    agent = request.headers["User-Agent"]
    render plain: Regexp.new("(?i)" + agent).source # expect: injection
  end

  private

  def build(pattern)
    Regexp.new(pattern) # expect: injection (reached from caller, another method)
  end

  def caller
    build(params[:p])
  end
end

get "/grep" do
  pattern = params["p"]
  LINES.grep(Regexp.new(pattern)).join("\n") # expect: injection
end
