/**
 * The ids of a question's lists (options, items, prompts, choices, blanks): kept when the author
 * gives them, else a, b, … by position, or random where the list's order would state the key.
 */

const RANDOM_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** The length of a random item or choice id. */
const RANDOM_ID_LENGTH = 8;
/** The largest multiple of the alphabet's 36 letters under 256: bytes from it on are drawn again, so each letter is as likely. */
const UNBIASED_BYTES = 252;

/** A random id: RANDOM_ID_LENGTH characters of [a-z0-9], each uniform, from the platform's CSPRNG. */
function randomListId(): string {
  let id = "";
  while (id.length < RANDOM_ID_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(RANDOM_ID_LENGTH))) {
      if (byte < UNBIASED_BYTES && id.length < RANDOM_ID_LENGTH) id += RANDOM_ID_ALPHABET[byte % RANDOM_ID_ALPHABET.length];
    }
  }
  return id;
}

/** The id a list gives its entry at `index` when the author leaves it out and the list is not random: a, b, … */
export const positionalId = (index: number): string => String.fromCharCode(97 + index);

/**
 * A list's ids: those the author gave, kept; the others a, b, … by position, or, where `random`,
 * fresh random ids unlike any other id of the list.
 */
export function listIds(list: readonly { id?: string }[], random: boolean): string[] {
  const taken = new Set(list.flatMap((entry) => (entry.id === undefined ? [] : [entry.id])));
  return list.map((entry, i) => {
    if (entry.id !== undefined) return entry.id;
    if (!random) return positionalId(i);
    let id = randomListId();
    while (taken.has(id)) id = randomListId();
    taken.add(id);
    return id;
  });
}

/** A list as stored: every entry with its id (listIds), its text, and a choice option's feedback when it has one. */
export function storedList(list: readonly { id?: string; text: string; feedback?: string }[], random: boolean) {
  const ids = listIds(list, random);
  return list.map((o, i) => ({
    id: ids[i] as string,
    text: o.text,
    ...(o.feedback === undefined ? {} : { feedback: o.feedback }),
  }));
}
