/**
 * What differs between the QTI versions written: QTI 3.0 spells elements `qti-kebab-case` and
 * attributes `kebab-case` where 2.1 uses camelCase, and each has its namespaces, template URLs
 * and manifest resource types. Writers name everything in 2.1 form and let this translate.
 */
import { escapeXml } from "../../xml";

export type QtiVersion = "2.1" | "3.0";

/** The item body class that marks a fill-in-the-blanks, so one blank reads back as a blank, not a short answer. */
export const FILL_IN_BLANKS_CLASS = "fill-in-blanks";

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const VERSIONS = {
  "2.1": {
    namespace: "http://www.imsglobal.org/xsd/imsqti_v2p1",
    schemaLocation: "http://www.imsglobal.org/xsd/imsqti_v2p1 http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1p2.xsd",
    template: (t: string) => `http://www.imsglobal.org/question/qti_v2p1/rptemplates/${t}`,
    manifestNamespace: "http://www.imsglobal.org/xsd/imscp_v1p1",
    itemResource: "imsqti_item_xmlv2p1",
    testResource: "imsqti_test_xmlv2p1",
    schema: "QTIv2.1 Package",
    schemaVersion: "1.0.0",
  },
  "3.0": {
    namespace: "http://www.imsglobal.org/xsd/imsqtiasi_v3p0",
    schemaLocation:
      "http://www.imsglobal.org/xsd/imsqtiasi_v3p0 https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
    template: (t: string) => `https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/${t}.xml`,
    manifestNamespace: "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
    itemResource: "imsqti_item_xmlv3p0",
    testResource: "imsqti_test_xmlv3p0",
    schema: "QTI Package",
    schemaVersion: "3.0.0",
  },
} as const;

/** Elements whose content QTI 3 wraps in a qti-content-body. */
const CONTENT_BODY = new Set(["modalFeedback", "rubricBlock"]);

export function qtiNames(version: QtiVersion) {
  const v = VERSIONS[version];
  const v3 = version === "3.0";
  const el = (name: string, attrs: Record<string, string> = {}, children = ""): string => {
    const tag = v3 ? `qti-${kebab(name)}` : name;
    const list = Object.entries(attrs)
      .map(([k, value]) => ` ${v3 ? kebab(k) : k}="${escapeXml(value)}"`)
      .join("");
    const inner = v3 && CONTENT_BODY.has(name) ? `<qti-content-body>${children}</qti-content-body>` : children;
    return inner === "" ? `<${tag}${list}/>` : `<${tag}${list}>${inner}</${tag}>`;
  };
  return {
    ...v,
    el,
    document: (root: string, attrs: Record<string, string>, children: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n${el(root, attrs, children).replace(
        /^<([\w-]+)/,
        `<$1 xmlns="${v.namespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${v.schemaLocation}"`,
      )}\n`,
    template: (t: "match_correct" | "map_response") => el("responseProcessing", { template: v.template(t) }),
    rules: (children: string) => el("responseProcessing", {}, children),
    /** responseCondition with its if/else-if branches and an optional else. */
    condition: (branches: [string, string][], otherwise?: string) =>
      el(
        "responseCondition",
        {},
        branches.map(([test, body], i) => el(i === 0 ? "responseIf" : "responseElseIf", {}, test + body)).join("") +
          (otherwise ? el("responseElse", {}, otherwise) : ""),
      ),
    set: (identifier: string, expression: string) => el("setOutcomeValue", { identifier }, expression),
    value: (baseType: string, text: string) => el("baseValue", { baseType }, escapeXml(text)),
  };
}
