# Held-out set 2: written before the finder changes of issue 27's follow-up,
# measured once after them, never tuned on (README.md).
class FiltersController < ApplicationController
  ORDERS = { 'asc' => '\Aa', 'desc' => '\Az' }.freeze

  before_action :load_pattern

  def index
    @items = Item.all.select { |i| Regexp.new(@pattern).match?(i.name) } # expect: injection
    render json: @items
  end

  def tags
    matchers = params[:tags].map { |t| Regexp.new(t) } # expect: injection
    render json: matchers.map(&:source)
  end

  def prefixed
    render json: { hit: /^#{request.headers['X-Prefix']}/.match?('x') } # expect: injection
  end

  def escaped
    render json: { source: Regexp.new(Regexp.escape(params[:q].to_s)).source } # expect: clean
  end

  def ordered
    render json: { source: Regexp.new(ORDERS[params[:order]] || '\Aa').source } # expect: clean
  end

  def words
    render json: { source: Regexp.new(Regexp.union(*params[:words]).source).source } # expect: clean
  end

  def stripped
    render json: { source: Regexp.new(params.fetch(:q).strip, Regexp::IGNORECASE).source } # expect: injection
  end

  private

  def load_pattern
    @pattern = params[:pattern] || '.*'
  end
end
