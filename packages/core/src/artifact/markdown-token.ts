import markdownIt, { type Token } from 'markdown-it';

type Nesting = Token['nesting'];

/**
 * A markdown-it token built by plain assignments. markdown-it's build sets each class field of
 * its `Token` through a helper call, which a fresh process runs unoptimised for every token
 * (about a tenth of a first parse). The token has the same own properties, in the same order,
 * and `Token`'s prototype, so it is a `Token` to every rule.
 */
function PlainToken(this: Token, type: string, tag: string, nesting: Nesting): void {
  this.map = null;
  this.level = 0;
  this.children = null;
  this.content = '';
  this.markup = '';
  this.info = '';
  this.block = false;
  this.hidden = false;
  this.type = type;
  this.tag = tag;
  this.attrs = null;
  this.nesting = nesting;
  this.meta = null;
}
PlainToken.prototype = markdownIt.Token.prototype;

const Plain = PlainToken as unknown as new (type: string, tag: string, nesting: Nesting) => Token;

/** A new token, as markdown-it's `new Token(type, tag, nesting)` gives it. */
export function newToken(type: string, tag: string, nesting: Nesting): Token {
  return new Plain(type, tag, nesting);
}
