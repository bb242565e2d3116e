/** The fixtures of test/interchange/fixtures (see its SOURCES.md), as text. */

import aikenCapitals from "./fixtures/aiken/capitals.txt?raw";
import giftKinds from "./fixtures/gift/moodle-doc-kinds.gift?raw";
import moodleTypes from "./fixtures/moodle/question-types.xml?raw";
import moodleRich from "./fixtures/moodle/rich-content.xml?raw";
import blanksV2p2 from "./fixtures/qti/blanks-v2p2.xml?raw";
import choiceMultipleUnequalV3 from "./fixtures/qti/choice-multiple-unequal-v3.xml?raw";
import choiceMultipleV2p2 from "./fixtures/qti/choice-multiple-v2p2.xml?raw";
import choiceV2p1 from "./fixtures/qti/choice-v2p1.xml?raw";
import extendedTextV3 from "./fixtures/qti/extended-text-v3.xml?raw";
import gapMatchV3 from "./fixtures/qti/gap-match-v3.xml?raw";
import hotspotV3 from "./fixtures/qti/hotspot-v3.xml?raw";
import inlineChoiceV2p1 from "./fixtures/qti/inline-choice-v2p1.xml?raw";
import matchV2p2 from "./fixtures/qti/match-v2p2.xml?raw";
import numericToleranceV2p1 from "./fixtures/qti/numeric-tolerance-v2p1.xml?raw";
import orderV3 from "./fixtures/qti/order-v3.xml?raw";
import packageManifest from "./fixtures/qti/package/imsmanifest.xml?raw";
import packageTest from "./fixtures/qti/package/warm-up.xml?raw";
import richManifest from "./fixtures/qti/rich/imsmanifest.xml?raw";
import richBeaker from "./fixtures/qti/rich/items/beaker.xml?raw";
import richFlask from "./fixtures/qti/rich/items/flask.xml?raw";
import richLost from "./fixtures/qti/rich/items/lost.xml?raw";
import richSpeed from "./fixtures/qti/rich/items/speed.xml?raw";
import textEntryV3 from "./fixtures/qti/text-entry-v3.xml?raw";
import trueFalseV3 from "./fixtures/qti/true-false-v3.xml?raw";

export const GIFT = { kinds: giftKinds };
export const AIKEN = { capitals: aikenCapitals };
export const MOODLE = { types: moodleTypes, rich: moodleRich };
export const QTI = {
  blanksV2p2,
  choiceV2p1,
  choiceMultipleUnequalV3,
  choiceMultipleV2p2,
  extendedTextV3,
  gapMatchV3,
  hotspotV3,
  inlineChoiceV2p1,
  matchV2p2,
  numericToleranceV2p1,
  orderV3,
  textEntryV3,
  trueFalseV3,
  package: { manifest: packageManifest, test: packageTest },
  /** A package whose items hold HTML, MathML and images (the images are added by the tests: see images.ts). */
  rich: {
    "imsmanifest.xml": richManifest,
    "items/flask.xml": richFlask,
    "items/speed.xml": richSpeed,
    "items/beaker.xml": richBeaker,
    "items/lost.xml": richLost,
  },
};

export const bytes = (text: string) => new TextEncoder().encode(text);
