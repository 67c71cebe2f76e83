/** Saves `href` (a data: or blob: URL) as a file named `fileName`, as a link with `download` does. */
export function saveHref(href: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a file built in the page or fetched (an export, a proof) under `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  saveHref(url, fileName);
  // The click has started the download; revoking in the same task can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
