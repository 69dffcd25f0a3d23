/**
 * MQTT over WebSocket for the embedded broker: a duplex stream over a `ws` socket that sends what
 * is written in one tick as one WebSocket frame. aedes writes a packet in several writes (fixed
 * header, topic, payload…); `ws`'s own `createWebSocketStream` makes each write a frame, so one
 * message left as ~5 frames, each with its own header, mask check and syscall at the viewer.
 * MQTT over WebSocket allows a frame to hold several packets or part of one.
 */
import { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** Bytes a viewer may have waiting before its writes wait (a slow viewer does not eat the memory). */
const HIGH_WATER = 256 * 1024;

export class WebSocketDuplex extends Duplex {
  private pending: Buffer[] = [];
  private scheduled = false;
  private waiting: (() => void) | undefined;

  constructor(private readonly socket: WebSocket) {
    super({ allowHalfOpen: false });
    socket.binaryType = 'nodebuffer';
    socket.on('message', (data: Buffer) => {
      if (!this.push(data)) socket.pause();
    });
    socket.on('close', () => {
      this.push(null);
      this.destroy();
    });
    socket.on('error', (e) => this.destroy(e));
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(() => this.flush());
    }
    // Back-pressure from the socket: the next write waits until this viewer has taken its bytes.
    if (this.socket.bufferedAmount > HIGH_WATER) this.waiting = () => callback();
    else callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush();
    this.socket.close();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.pending = [];
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.terminate();
    }
    callback(error);
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(data, { binary: true }, (e) => {
      if (e) this.destroy(e);
      else if (this.waiting && this.socket.bufferedAmount <= HIGH_WATER) {
        const go = this.waiting;
        this.waiting = undefined;
        go();
      }
    });
  }
}
