// One WebSocket to a table: hello with the seat token and last version, gap-free
// versions (a gap asks for a sync), one heartbeat, automatic reconnects, and commands
// that carry a client id and the version they expect (resent after a reconnect).

const HEARTBEAT_MS = 15000;

export class TableSocket {
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.version = null;
    this.view = null; // the view and table of the last frame: updates send what changed
    this.table = null;
    this.token = null;
    this.pending = new Map();
    this.prefix = Math.random().toString(36).slice(2, 10);
    this.counter = 0;
    this.retry = 0;
    this.ws = null;
    this.closedByUs = false;
    this.reconnectTimer = null;
    // Going offline is shown at once (#15), not after a socket times out; coming back
    // online reconnects at once.
    addEventListener("offline", () => this.status("offline"));
    addEventListener("online", () => {
      this.retry = 0;
      if (this.ws?.readyState === WebSocket.OPEN) this.drop();
      else if (this.ws) this.connect(this.token);
    });
  }

  connect(token) {
    clearTimeout(this.reconnectTimer);
    this.token = token;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.status(navigator.onLine === false ? "offline" : "connecting");
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token, last_version: this.version }));
      this.heartbeat = setInterval(() => this.send({ type: "ping", t: Date.now() }), HEARTBEAT_MS);
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = () => {
      clearInterval(this.heartbeat);
      if (this.ws !== ws || this.closedByUs) return;
      this.status(navigator.onLine === false ? "offline" : "reconnecting");
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      this.reconnectTimer = setTimeout(() => this.connect(this.token), delay);
    };
  }

  reidentify(token) {
    this.token = token;
    this.send({ type: "hello", token, last_version: this.version });
  }

  status(kind) {
    this.handlers.status?.(kind);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  command(type, fields = {}) {
    const id = `${this.prefix}-${++this.counter}`;
    const message = { type, id, version: this.version ?? 0, ...fields };
    this.pending.set(id, message);
    this.send(message);
    return id;
  }

  receive(frame) {
    switch (frame.type) {
      case "sync":
        this.version = frame.version;
        this.view = frame.view;
        this.table = frame.table;
        this.status("online");
        this.handlers.sync?.(frame);
        for (const message of this.pending.values()) this.send(message);
        break;
      case "update":
        if (this.version !== null && frame.version !== this.version + 1) {
          if (frame.version > this.version + 1) this.send({ type: "sync", last_version: this.version });
          return;
        }
        this.version = frame.version;
        this.handlers.update?.(this.whole(frame));
        break;
      case "ack":
        this.pending.delete(frame.id);
        this.handlers.ack?.(frame);
        break;
      case "refused":
      case "error":
        if (frame.id) this.pending.delete(frame.id);
        this.handlers.refused?.(frame);
        break;
      case "presence":
        this.handlers.presence?.(frame);
        break;
      case "chat":
        this.handlers.chat?.(frame);
        break;
      case "hint":
        this.handlers.hint?.(frame);
        break;
      default:
        break;
    }
  }

  /**
   * An update made whole (docs/protocol.md, "Only what changed"): its view is the last
   * one with `view_changes` laid over it, and a frame with no `table` keeps the last.
   */
  whole(frame) {
    if (frame.view_changes) frame.view = { ...this.view, ...frame.view_changes };
    if (!("table" in frame)) frame.table = this.table;
    this.view = frame.view;
    this.table = frame.table;
    return frame;
  }

  drop() {
    // Close the socket as a network failure would; the reconnect logic takes over.
    this.ws?.close();
  }
}
