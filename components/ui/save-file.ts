/**
 * Save bytes the page holds as a file. Downloads go through a blob the page fetched, not a link
 * the browser follows: the page then sees a refusal (and says it) instead of saving an error
 * body, and Chromium does not cancel a plain-http download it deems insecure.
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The file name a download route gives in Content-Disposition, or `fallback`. */
export function attachmentName(res: Response, fallback: string): string {
  return /filename="([^"/\\]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallback;
}
