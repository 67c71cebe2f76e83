/** The paging part of a paged list answer (`list`, `count`: every item over all pages). */
export interface PagedAnswer {
  list: readonly unknown[];
  count: number;
}

/**
 * TanStack's getNextPageParam for 1-based paged lists: the next page while
 * fewer than `count` items are loaded, none after an empty page (a list that
 * shrank while it was being read).
 */
export function nextPage(last: PagedAnswer, pages: readonly PagedAnswer[]): number | undefined {
  const loaded = pages.reduce((sum, page) => sum + page.list.length, 0);
  return loaded < last.count && last.list.length > 0 ? pages.length + 1 : undefined;
}
