import { type Zippable, zipSync } from "fflate";

/**
 * A QTI content package as large as an import may be: `items` items of the given templates (QTI
 * 2.1, 2.2 and 3.0 items, cycled; one essay, since a quiz's essays are few: each may take 60 KB of
 * a submission's row), each naming an image of random bytes, so that the zip comes to about
 * `totalBytes` (images do not compress, and the reader never inflates them). The templates are
 * the fixtures' items (test/interchange/fixtures/qti): the import tests pass them as Vite reads
 * them, the bench as it reads them from disk.
 */
export interface PackageTemplates {
  items: string[];
  essay: string;
}

const ESSAY_AT = 6;
const encode = (text: string) => new TextEncoder().encode(text);

/** Random bytes (crypto.getRandomValues fills at most 64 KiB at a time). */
function noise(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536) crypto.getRandomValues(out.subarray(at, Math.min(length, at + 65_536)));
  return out;
}

export function bigQtiPackage(templates: PackageTemplates, items = 200, totalBytes = 10 * 1024 * 1024 - 64 * 1024): Uint8Array {
  const files: Zippable = {};
  const resources: string[] = [];
  for (let i = 0; i < items; i++) {
    const template = i === ESSAY_AT ? templates.essay : (templates.items[i % templates.items.length] as string);
    // The root element's identifier and title made unique; every item shows its image.
    const xml = template
      .replace(/identifier="[^"]*"/, `identifier="item-${i}"`)
      .replace(/title="([^"]*)"/, `title="$1 #${i + 1}"`)
      .replace(/<(qti-item-body|itemBody)\b[^>]*>/, `$&<p><img src="../images/img-${i}.png" alt="Figure ${i + 1}"/></p>`);
    files[`items/item-${i}.xml`] = encode(xml);
    resources.push(
      `<resource identifier="R${i}" type="imsqti_item_xmlv2p1" href="items/item-${i}.xml"><file href="items/item-${i}.xml"/><file href="images/img-${i}.png"/></resource>`,
    );
  }
  files["imsmanifest.xml"] = encode(
    `<?xml version="1.0" encoding="UTF-8"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="BIG"><metadata><schema>QTI Package</schema></metadata><organizations/><resources>${resources.join("")}</resources></manifest>`,
  );
  const xmlOnly = zipSync(files, { level: 6 }).length;
  const imageBytes = Math.max(0, Math.floor((totalBytes - xmlOnly) / items) - 120);
  for (let i = 0; i < items; i++) files[`images/img-${i}.png`] = [noise(imageBytes), { level: 0 }];
  return zipSync(files, { level: 6 });
}
