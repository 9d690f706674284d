# First held-out set (frozen finder 15a748f, measured once), seen since:
# a development file now (tests/data/regex_injection/README.md).
class ArticlesController < ApplicationController
  def filter
    pattern = params.fetch(:pattern, "")
    @articles = Article.all.select { |a| a.title.match?(Regexp.new(pattern, "i")) } # expect: injection
  end

  def tags
    tag = params.require(:tag)
    re = %r{\A#{Regexp.escape(tag)}(/|\z)} # expect: clean
    @articles = Article.all.select { |a| a.tags.any? { |t| t =~ re } }
  end

  def slug
    re = /\A#{params[:slug]}\z/ # expect: injection
    @article = Article.all.find { |a| a.slug =~ re }
  end

  def allowed
    re = Regexp.new(ALLOWED.join("|")) # expect: clean
    render plain: re.source
  end

  def per_page
    count = Integer(params[:per_page] || 10)
    re = Regexp.new("\\d{#{count}}") # expect: clean
    render plain: re.source
  end

  def names
    res = params[:names].to_s.split(",").map { |n| Regexp.new(n) } # expect: injection (block parameter)
    render plain: res.map(&:source).join
  end
end
