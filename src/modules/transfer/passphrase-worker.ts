/**
 * The worker thread of bundle-secrets.ts: age encryption and decryption with a passphrase, whose scrypt key
 * derivation costs about 1–2 s of CPU and 256 MiB (work factor 2^18; a bundle may ask up to 2^20 to decrypt), off the
 * server's event loop. One message in, one answer out, in order: `{ id, op, text, passphrase }` →
 * `{ id, text }` or `{ id, error }` (the failure's message).
 */
import { parentPort } from "node:worker_threads";
import { armor, Decrypter, Encrypter } from "age-encryption";

/** One job of the worker: encrypt `text` (plaintext) or decrypt it (an armored age file) with `passphrase`. */
export interface PassphraseJob {
  id: number;
  op: "encrypt" | "decrypt";
  text: string;
  passphrase: string;
}

/** The worker's answer to the job `id`: the result text, or the failure's message. */
export type PassphraseAnswer = { id: number; text: string } | { id: number; error: string };

/** Runs one job (in the worker). @throws what age throws for a wrong passphrase or a file that is not age. */
async function run(job: PassphraseJob): Promise<string> {
  if (job.op === "encrypt") {
    const e = new Encrypter();
    e.setPassphrase(job.passphrase);
    return armor.encode(await e.encrypt(job.text));
  }
  const d = new Decrypter();
  d.addPassphrase(job.passphrase);
  return d.decrypt(armor.decode(job.text), "text");
}

parentPort?.on("message", (job: PassphraseJob) => {
  run(job).then(
    (text) => parentPort?.postMessage({ id: job.id, text } satisfies PassphraseAnswer),
    (err: unknown) => parentPort?.postMessage({ id: job.id, error: String(err) } satisfies PassphraseAnswer),
  );
});
