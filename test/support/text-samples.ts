/**
 * Well-formed text (docs/security.md, src/lib/text.ts): no lone surrogates, no control characters
 * (tab, LF and CR only in multi-line fields), a visible character in every non-empty string.
 */

export const LONE_SURROGATES = {
  "a lone high surrogate": "\ud800",
  "a lone low surrogate": "\udfff",
  "a reversed pair": "\udc00\ud800",
  "a high one between letters": "a\ud83dz",
};
export const CONTROLS = {
  NUL: "\u0000",
  BEL: "\u0007",
  ESC: "\u001b[31m",
  "NUL inside": "a\u0000b",
  DEL: "x\u007f",
  "C1 NEL": "x\u0085y",
  "C1 CSI": "\u009b31m",
};
export const INVISIBLES = {
  "ZERO WIDTH SPACE": "\u200b",
  "ZWSP + ZWJ": "\u200b\u200d",
  "HANGUL FILLER": "\u3164",
  "WORD JOINER, space, WORD JOINER": "\u2060 \u2060",
  "HANGUL CHOSEONG/JUNGSEONG FILLERS": "\u115f\u1160",
  "HALFWIDTH HANGUL FILLER": "\uffa0",
  "BRAILLE PATTERN BLANK": "\u2800",
  "bidi controls": "\u202e\u2066\u2069\u200f",
  "soft hyphen": "\u00ad",
  "variation selector and CGJ": "\ufe0f\u034f",
  "tag characters": "\u{e0041}\u{e007f}",
};
/** Ordinary text the rules must leave alone, byte for byte. */
export const ORDINARY = {
  emoji: "Quiz 😀 🏳️‍🌈 👩‍👩‍👧‍👦 ✔︎",
  "combining marks": "Cafe\u0301 Ame\u0301lie z\u0337a\u0338l\u0336g\u0337o",
  RTL: "مرحبا بالعالم — שלום עולם",
  CJK: "日本語のクイズ 中文測驗 한국어 퀴즈",
  "NFKC variants": "ﬁ Ａｄａ ① ㎏ ｶ \u212b",
  "joiners between letters": "क्‍ष a\u200bb",
};
