/** What a user may be. */
export const ROLES = ["student", "instructor", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** The form of an e-mail address that uniqueness and look-ups compare: e-mails match case-insensitively. */
export const normalizeEmail = (email: string) => email.toLowerCase();
