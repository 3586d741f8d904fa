/**
 * The secrets of an organization bundle (docs/organization-transfer.md "Secrets"): one JSON object from secret
 * reference to value, encrypted as one ASCII-armored age file (age-encryption, the format's reference TypeScript
 * implementation) to an X25519 recipient (`age1…`) or a passphrase (scrypt). One file for all secrets: the
 * passphrase's key derivation runs once per bundle, not once per secret. Without a key nothing is encrypted and the
 * values are left out.
 */
import { armor, Decrypter, Encrypter } from "age-encryption";
import { BadUserInputError } from "../../shared/errors.ts";

/** How the caller asks the secrets to be carried: to a recipient key, to a passphrase, or not at all. */
export interface SecretsKey {
  /** An age X25519 recipient, `age1…` (its identity `AGE-SECRET-KEY-1…` decrypts). */
  recipient?: string | null;
  /** A passphrase of at least {@link MIN_PASSPHRASE} characters. */
  passphrase?: string | null;
}

/** Shortest passphrase accepted (characters). */
export const MIN_PASSPHRASE = 12;

/**
 * The key of an export, checked. @returns null when neither is given.
 * @throws BadUserInputError when both are given, the passphrase is too short or the recipient is not an age X25519
 * recipient.
 */
export function checkedKey(key: SecretsKey): { recipient: string } | { passphrase: string } | null {
  const recipient = key.recipient?.trim() || null;
  const passphrase = key.passphrase || null;
  if (recipient && passphrase) {
    throw new BadUserInputError("Give a recipient or a passphrase, not both", {
      fieldErrors: { recipient: ["Give a recipient or a passphrase, not both"] },
    });
  }
  if (passphrase !== null && passphrase.length < MIN_PASSPHRASE) {
    throw new BadUserInputError(`The passphrase must have at least ${MIN_PASSPHRASE} characters`, {
      fieldErrors: { passphrase: [`At least ${MIN_PASSPHRASE} characters`] },
    });
  }
  if (recipient !== null && !/^age1[02-9ac-hj-np-z]{58}$/.test(recipient)) {
    throw new BadUserInputError("The recipient must be an age X25519 recipient (age1… as age-keygen prints it)", {
      fieldErrors: { recipient: ["Not an age X25519 recipient"] },
    });
  }
  if (recipient) return { recipient };
  if (passphrase) return { passphrase };
  return null;
}

/** Encrypts `values` (reference → value) to `key` as an ASCII-armored age file. */
export async function encryptSecrets(
  values: ReadonlyMap<string, string>,
  key: { recipient: string } | { passphrase: string },
): Promise<string> {
  const e = new Encrypter();
  if ("recipient" in key) {
    try {
      e.addRecipient(key.recipient);
    } catch {
      throw new BadUserInputError("The recipient is not a valid age recipient", {
        fieldErrors: { recipient: ["Not an age X25519 recipient"] },
      });
    }
  } else e.setPassphrase(key.passphrase);
  return armor.encode(await e.encrypt(JSON.stringify(Object.fromEntries(values))));
}

/**
 * Decrypts a bundle's `ciphertext` with an identity (`AGE-SECRET-KEY-1…`) or a passphrase.
 * @returns reference → value. @throws BadUserInputError (fieldErrors `identity` or `passphrase`, the key given)
 * when the key does not open it or it is not an age file.
 */
export async function decryptSecrets(
  ciphertext: string,
  key: { identity: string } | { passphrase: string },
): Promise<Record<string, string>> {
  const d = new Decrypter();
  try {
    if ("identity" in key) d.addIdentity(key.identity);
    else d.addPassphrase(key.passphrase);
    const parsed = JSON.parse(await d.decrypt(armor.decode(ciphertext), "text")) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    return parsed as Record<string, string>;
  } catch {
    const field = "identity" in key ? "identity" : "passphrase";
    throw new BadUserInputError("The key does not decrypt the bundle's secrets", {
      fieldErrors: { [field]: ["Does not decrypt the bundle's secrets"] },
    });
  }
}
