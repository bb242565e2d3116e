/**
 * Moodle's question categories, which GIFT ($CATEGORY:) and Moodle XML (<question type="category">)
 * both write: a question in a category carries its last segment as a tag.
 */

/** The last segment of a Moodle category path ("$course$/top/Geography" → "Geography"; "//" is a literal "/"). */
export function categoryTag(path: string): string | undefined {
  const segments: string[] = [];
  let segment = "";
  let from = 0;
  for (let slash = path.indexOf("/"); slash >= 0; slash = path.indexOf("/", from)) {
    segment += path.slice(from, slash);
    if (path[slash + 1] === "/") {
      segment += "/";
      from = slash + 2;
    } else {
      segments.push(segment.trim());
      segment = "";
      from = slash + 1;
    }
  }
  segments.push((segment + path.slice(from)).trim());
  return segments.filter((s) => s !== "" && !/^\$\w+\$$/.test(s) && s !== "top").pop();
}
