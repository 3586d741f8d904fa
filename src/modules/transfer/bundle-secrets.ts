/**
 * The secrets of an organization bundle (docs/organization-transfer.md "Secrets"): one JSON object from secret
 * reference to value, encrypted as one ASCII-armored age file (age-encryption, the format's reference TypeScript
 * implementation) to an X25519 recipient (`age1…`) or a passphrase (scrypt). One file for all secrets: the
 * passphrase's key derivation runs once per bundle, not once per secret, in a worker thread (passphrase-worker.ts:
 * scrypt takes seconds of CPU, which would stall every other request on the event loop). Without a key nothing is
 * encrypted and the values are left out.
 */
import { Worker } from "node:worker_threads";
import { armor, Decrypter, Encrypter } from "age-encryption";
import { BadUserInputError } from "../../shared/errors.ts";
import type { PassphraseAnswer, PassphraseJob } from "./passphrase-worker.ts";

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
  } else return inWorker("encrypt", JSON.stringify(Object.fromEntries(values)), key.passphrase);
  return armor.encode(await e.encrypt(JSON.stringify(Object.fromEntries(values))));
}

/**
 * Decrypts a bundle's `ciphertext` with an identity (`AGE-SECRET-KEY-1…`) or a passphrase.
 * @returns reference → value. @throws BadUserInputError: fieldErrors `identity` or `passphrase` (the key given)
 * when the key does not open it; `secrets.ciphertext` when it is not an age file or was altered.
 */
export async function decryptSecrets(
  ciphertext: string,
  key: { identity: string } | { passphrase: string },
): Promise<Record<string, string>> {
  try {
    let text: string;
    if ("identity" in key) {
      const d = new Decrypter();
      d.addIdentity(key.identity);
      text = await d.decrypt(armor.decode(ciphertext), "text");
    } else text = await inWorker("decrypt", ciphertext, key.passphrase);
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    return parsed as Record<string, string>;
  } catch (error) {
    // age says which: no recipient of the file matched the key, or the file itself is not what age wrote.
    if (!String(error).includes("no identity matched")) {
      const message = "The bundle's encrypted secrets are damaged (not an age file, or altered): export it again";
      throw new BadUserInputError(message, { fieldErrors: { "secrets.ciphertext": [message] } });
    }
    const field = "identity" in key ? "identity" : "passphrase";
    throw new BadUserInputError("The key does not decrypt the bundle's secrets", {
      fieldErrors: { [field]: ["Does not decrypt the bundle's secrets"] },
    });
  }
}

/** The passphrase worker (started on first use; it keeps the process alive only while a job runs) and its jobs. */
let worker: Worker | null = null;
const awaiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
let lastJob = 0;

/**
 * Runs one passphrase job in the worker thread; jobs run one at a time, in order (one key derivation's memory at
 * once). @returns the result text. @throws Error with age's message when it fails, or when the worker died.
 */
function inWorker(op: PassphraseJob["op"], text: string, passphrase: string): Promise<string> {
  if (!worker) {
    const started = new Worker(new URL("./passphrase-worker.ts", import.meta.url));
    started.unref();
    started.on("message", (answer: PassphraseAnswer) => {
      const job = awaiting.get(answer.id);
      awaiting.delete(answer.id);
      if (awaiting.size === 0) started.unref();
      if ("error" in answer) job?.reject(new Error(answer.error));
      else job?.resolve(answer.text);
    });
    const fail = (error: Error) => {
      if (worker === started) worker = null;
      for (const job of awaiting.values()) job.reject(error);
      awaiting.clear();
    };
    started.on("error", fail);
    started.on("exit", (code) => fail(new Error(`the passphrase worker exited with code ${code}`)));
    worker = started;
  }
  const id = ++lastJob;
  const job: PassphraseJob = { id, op, text, passphrase };
  const answer = new Promise<string>((resolve, reject) => awaiting.set(id, { resolve, reject }));
  worker.ref();
  worker.postMessage(job);
  return answer;
}
