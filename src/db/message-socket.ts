/**
 * The socket under each connection of Knex's pool (src/db/knex.ts: the statements of reads and writes,
 * memory under large answers): it reads into one reusable buffer and hands `pg` whole protocol messages.
 *
 * What it replaces: a plain socket allocates a 64 KiB buffer per read and copies a short read into a new buffer of
 * its length; pg-protocol then copies a message larger than a read into a buffer it doubles as reads arrive (64,
 * 128, 256, 512 KiB for a 480 KB answer). A large answer thus left about 1.4 MB of dead buffers of assorted sizes per
 * request for the next garbage collection, and the assorted sizes fragmented glibc's heap: its main arena grew from
 * 15 to 67–85 MB of RSS under 32 connections of 480 KB answers (measured 28 November 2026 on a 2-core VM). Framed
 * here, a message of any size costs one allocation of its size, and messages that fit in a read are handed on
 * together as one buffer; pg-protocol parses each buffer in place (it keeps a buffer that holds whole messages
 * without copying it).
 *
 * A PostgreSQL protocol message after start-up is one type byte and a 4-byte big-endian length that counts itself
 * and the body. Only connections without TLS are framed (with TLS, pg reads the server's one-byte answer to its
 * SSLRequest from the socket and TLS reads the socket itself): {@link messageSocket} returns a plain socket then.
 */
import net from "node:net";

/** Type byte + length. */
const HEADER_BYTES = 5;
/**
 * Past this length a message is left to pg-protocol's own buffering (handed on as read): PostgreSQL sends nothing
 * this large (a value is at most 1 GB), and a buffer is never allocated for a length only a broken stream shows.
 */
const MAX_FRAMED_LENGTH = 1024 ** 3 + 1024 ** 2;

/**
 * The one read buffer of every framed socket: a read's bytes are consumed (copied out) before its callback returns,
 * and Node runs one callback at a time.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/**
 * Hands whole messages of a byte stream to `emit`, in order: the bytes of each read that form whole messages as one
 * copy, and a message that outlasts the read into a buffer of its exact size, handed on once filled.
 */
export class MessageFramer {
  /** A message longer than what has arrived of it, being filled. */
  private message: Buffer | null = null;
  private filled = 0;
  /** The start of a header (under 5 bytes) that a read cut. */
  private carry: Buffer | null = null;
  /** Set once a length made no sense: everything is then handed on as read, for pg-protocol to report. */
  private passThrough = false;

  private readonly emit: (bytes: Buffer) => void;

  constructor(emit: (bytes: Buffer) => void) {
    this.emit = emit;
  }

  /** Takes one read's bytes (`read` is only valid during the call: what is kept is copied). */
  push(read: Buffer): void {
    if (this.passThrough) {
      this.emit(Buffer.from(read));
      return;
    }
    const chunk = this.carry ? Buffer.concat([this.carry, read]) : read;
    this.carry = null;
    let at = 0;
    if (this.message) {
      at = Math.min(this.message.length - this.filled, chunk.length);
      this.filled += chunk.copy(this.message, this.filled, 0, at);
      if (this.filled < this.message.length) return;
      const whole = this.message;
      this.message = null;
      this.emit(whole);
    }
    let end = at;
    while (end + HEADER_BYTES <= chunk.length) {
      const length = chunk.readUInt32BE(end + 1);
      if (length < 4 || length > MAX_FRAMED_LENGTH) {
        // No message is shorter than its length field (or that long): hand the rest on as read, as a plain socket
        // would, for pg-protocol to deal with.
        this.passThrough = true;
        this.emit(Buffer.from(chunk.subarray(at)));
        return;
      }
      if (end + 1 + length > chunk.length) break;
      end += 1 + length;
    }
    if (end > at) this.emit(Buffer.from(chunk.subarray(at, end)));
    const rest = chunk.length - end;
    if (rest === 0) return;
    if (rest < HEADER_BYTES) {
      this.carry = Buffer.from(chunk.subarray(end));
      return;
    }
    this.message = Buffer.allocUnsafe(1 + chunk.readUInt32BE(end + 1));
    this.filled = chunk.copy(this.message, 0, end);
  }
}

/**
 * pg's `stream` option (a `pg.Client` calls it with its connection's settings): a socket that emits `data` as whole
 * protocol messages ({@link MessageFramer}), or a plain socket when the connection uses TLS.
 */
export function messageSocket(settings: { ssl?: unknown } = {}): net.Socket {
  if (settings.ssl) return new net.Socket();
  const socket: net.Socket = new net.Socket({
    onread: {
      buffer: READ_BUFFER,
      callback: (bytes: number, buffer: Uint8Array) => {
        framer.push((buffer as Buffer).subarray(0, bytes));
        return true;
      },
    },
  });
  const framer = new MessageFramer((bytes) => socket.emit("data", bytes));
  return socket;
}
