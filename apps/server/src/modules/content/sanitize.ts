import { FilterXSS } from 'xss';

/**
 * Notice bodies are operator-written HTML shown inside the app (spec §2
 * "notice detail"). Only this allow-list survives; everything else is
 * stripped: script and style elements with their content, every on*
 * handler, and javascript:/data: URLs (xss's default attribute filter).
 */
const ALLOWED: Record<string, string[]> = {
  p: [],
  br: [],
  hr: [],
  div: [],
  span: [],
  b: [],
  strong: [],
  i: [],
  em: [],
  u: [],
  small: [],
  h3: [],
  h4: [],
  blockquote: [],
  ul: [],
  ol: [],
  li: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: [],
  td: [],
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height'],
};

const filter = new FilterXSS({
  whiteList: ALLOWED,
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style', 'iframe', 'object', 'embed'],
  allowCommentTag: false,
});

export function sanitizeHtml(html: string): string {
  return filter.process(html);
}
