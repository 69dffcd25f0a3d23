#include "xq_board.h"

static uint32_t period_us(uint16_t hz) { return (uint32_t)(1000000ul / hz); }

static void sat_inc(uint16_t *n) {
  if (*n != 0xFFFFu) (*n)++;
}

static uint8_t push(xq_board *b, uint8_t type, uint8_t a, uint8_t c, uint16_t echo, uint32_t t_ms) {
  xq_intent *it;
  if (b->q_len >= XQ_QUEUE_LEN) return 0;
  it = &b->queue[(uint8_t)((b->q_head + b->q_len) % XQ_QUEUE_LEN)];
  it->type = type;
  it->a = a;
  it->b = c;
  it->echo = echo;
  it->t_ms = t_ms;
  b->q_len++;
  if (type == XQ_T_SNAPSHOT) b->snapshots_queued++;
  return 1;
}

static uint8_t caps(const xq_board *b) {
  return (uint8_t)((b->hal->leds ? XQ_CAP_LEDS : 0) | (b->hal->button ? XQ_CAP_BUTTONS : 0));
}

void xq_board_init(xq_board *b, const xq_config *cfg, const xq_hal *hal, uint32_t now_us, uint32_t now_ms) {
  uint8_t n = 0;
  b->cfg = *cfg;
  b->hal = hal;
  while (n < XQ_BOARD_ID_MAX && cfg->board_id[n]) n++;
  b->id_len = n;
  if (b->cfg.debounce == 0) b->cfg.debounce = 1;
  if (b->cfg.scan_hz < XQ_SCAN_HZ_MIN || b->cfg.scan_hz > XQ_SCAN_HZ_MAX) b->cfg.scan_hz = XQ_DEFAULT_SCAN_HZ;
  if (b->cfg.heartbeat_ms == 0) b->cfg.heartbeat_ms = XQ_DEFAULT_HEARTBEAT_MS;
  b->nbits = cfg->sensing == XQ_SENSING_COLOUR ? 2 * XQ_CELLS : XQ_CELLS;
  xq_debounce_init(&b->deb);
  for (n = 0; n < XQ_RAW_BYTES; n++) b->raw[n] = 0;
  xq_button_init(&b->buttons[0]);
  xq_button_init(&b->buttons[1]);
  b->presses[0] = b->presses[1] = 0;
  xq_rx_init(&b->rx);
  b->q_head = b->q_len = 0;
  b->snapshots_queued = 0;
  b->change_pending = 0;
  b->booted = 0;
  b->need_delimiter = 1;
  b->stalled = 0;
  b->tx_seq = 0;
  b->scan_period_us = period_us(b->cfg.scan_hz);
  b->next_scan_us = now_us;
  b->scans = 0;
  b->now_ms = now_ms;
  b->last_scan_ms = now_ms;
  b->last_snapshot_ms = now_ms;
  b->rx_bad = 0;
  b->tx_deferred = 0;
  b->led_pending = 0;
  b->led_echo = 0;
  b->led_rgb = 0;
  push(b, XQ_T_INFO, 0, 0, 0, now_ms);
}

/* ---- commands ---- */

static void ack(xq_board *b, const xq_frame *f, uint8_t status) {
  /* A wrong length or value is a bad frame (PROTOCOL.md section 2), answered all the same. */
  if (status == XQ_ACK_BAD_LENGTH || status == XQ_ACK_OUT_OF_RANGE) sat_inc(&b->rx_bad);
  push(b, XQ_T_ACK, f->type, status, f->seq, 0);
}

static void on_command(xq_board *b, const xq_frame *f) {
  switch (f->type) {
    case XQ_T_HELLO:
    case XQ_T_PING:
    case XQ_T_GET_SNAPSHOT:
      if (f->body_len != 0) {
        ack(b, f, XQ_ACK_BAD_LENGTH);
        return;
      }
      if (f->type == XQ_T_PING) {
        push(b, XQ_T_PONG, 0, 0, f->seq, b->now_ms);
        return;
      }
      if (f->type == XQ_T_HELLO) push(b, XQ_T_INFO, 0, 0, f->seq, b->now_ms);
      /* Before the first debounce window the cells mean nothing yet: the boot snapshot answers. */
      if (b->booted) push(b, XQ_T_SNAPSHOT, XQ_REASON_REQUESTED, 0, 0, 0);
      return;
    case XQ_T_SET_SCAN_RATE: {
      uint16_t hz;
      if (f->body_len != 2) {
        ack(b, f, XQ_ACK_BAD_LENGTH);
        return;
      }
      hz = xq_get_u16(f->body);
      if (hz < XQ_SCAN_HZ_MIN || hz > XQ_SCAN_HZ_MAX) {
        ack(b, f, XQ_ACK_OUT_OF_RANGE);
        return;
      }
      b->cfg.scan_hz = hz;
      b->scan_period_us = period_us(hz);
      ack(b, f, XQ_ACK_OK);
      return;
    }
    case XQ_T_LED_FRAME:
      if (f->body_len != XQ_LED_BYTES) {
        ack(b, f, XQ_ACK_BAD_LENGTH);
        return;
      }
      if (!b->hal->leds) {
        ack(b, f, XQ_ACK_UNSUPPORTED);
        return;
      }
      /* Latched where it is: receive() reads nothing more until it is shown, so the RX buffer
         holds it. Rendered in the show's slot; "ACK 0 when shown" comes after the show. */
      b->led_rgb = f->body;
      b->led_pending = 1; /* 2 from the next poll on: see show_leds() */
      b->led_echo = f->seq;
      return;
    default:
      ack(b, f, XQ_ACK_UNKNOWN_TYPE);
      return;
  }
}

static void receive(xq_board *b) {
  int16_t c;
  xq_frame f;
  /* Bounded: ~0.2 ms of bytes per poll on the Mega (~200 cycles each with the running CRC), so
     a backlog (bytes wait while an LED frame waits for its slot) never makes a scan late by more.
     Even so a poll reads ~80 bytes/ms, far more than the 11.5 bytes/ms of 115200 baud. */
  uint16_t budget = XQ_RX_BUDGET;
  /* While a frame waits to be shown, later commands wait in the UART buffer: their replies must
     not overtake its ACK (PROTOCOL.md: replies in command order). It waits one scan period at most. */
  while (!b->led_pending && budget-- && (c = b->hal->rx_byte(b->hal->ctx)) >= 0) {
    int8_t r = xq_rx_push(&b->rx, (uint8_t)c, &f);
    if (r == XQ_RX_BAD) sat_inc(&b->rx_bad);
    else if (r == XQ_RX_FRAME) {
      /* Board-to-controller types coming back (a loopback) are bad frames, never answered:
         answering would ping-pong forever. */
      if (f.type & 0x80u) sat_inc(&b->rx_bad);
      else on_command(b, &f);
    }
  }
}

/* ---- sensing ---- */

static void sample_buttons(xq_board *b) {
  uint8_t side;
  if (!b->hal->button) return;
  for (side = 0; side < 2; side++) {
    if (xq_button_sample(&b->buttons[side], b->hal->button(b->hal->ctx, side), b->now_ms)) {
      b->presses[side]++;
      push(b, XQ_T_BUTTON, side, b->presses[side], 0, b->now_ms);
    }
  }
}

/* Returns 1 if it scanned. */
static uint8_t scan(xq_board *b, uint32_t now_us) {
  if ((int32_t)(now_us - b->next_scan_us) < 0) return 0;
  b->next_scan_us += b->scan_period_us;
  /* Fell more than a period behind (a long LED frame, a debugger): restart the grid, no burst. */
  if ((int32_t)(now_us - b->next_scan_us) >= 0) b->next_scan_us = now_us + b->scan_period_us;
  b->hal->read_raw(b->hal->ctx, b->raw, b->nbits);
  b->scans++;
  b->last_scan_ms = b->now_ms;
  if (xq_debounce_scan(&b->deb, b->raw, b->cfg.sensing, b->cfg.active_low, b->cfg.debounce) && b->booted) {
    b->change_pending = 1;
  }
  if (!b->booted && b->scans >= b->cfg.debounce) {
    /* Every cell has had a full debounce window: the first snapshot is meaningful. */
    b->booted = 1;
    b->change_pending = 0;
    push(b, XQ_T_SNAPSHOT, XQ_REASON_BOOT, 0, 0, 0);
  }
  return 1;
}

/* The show blocks (interrupts off) for XQ_LED_SHOW_US, so it goes where it ends before the next
   scan is due: right after a scan, or whenever that much time is left. A scan period too short to
   hold it (above ~250 Hz) still gets it right after a scan: that one scan is late, and the grid
   restarts after it (see scan()). */
static void show_leds(xq_board *b, uint32_t now_us, uint8_t scanned) {
  if (!b->led_pending) return;
  if (b->led_pending == 1) {
    /* Latched in this poll, after bytes whose time now_us does not know of: the next poll
       brings a fresh clock. */
    b->led_pending = 2;
    return;
  }
  if (!scanned && (int32_t)(b->next_scan_us - now_us) < (int32_t)(XQ_LED_SHOW_US + XQ_LED_MARGIN_US)) return;
  xq_leds_render(b->led_rgb, b->cfg.led_serpentine, b->cfg.led_brightness, b->led_grb);
  b->hal->leds(b->hal->ctx, b->led_grb);
  b->led_pending = 0;
  push(b, XQ_T_ACK, XQ_T_LED_FRAME, XQ_ACK_OK, b->led_echo, 0);
}

static void schedule_snapshots(xq_board *b) {
  if (!b->booted || b->snapshots_queued) return;
  if (b->change_pending) {
    if (push(b, XQ_T_SNAPSHOT, XQ_REASON_CHANGE, 0, 0, 0)) b->change_pending = 0;
  } else if ((uint32_t)(b->now_ms - b->last_snapshot_ms) >= b->cfg.heartbeat_ms) {
    push(b, XQ_T_SNAPSHOT, XQ_REASON_HEARTBEAT, 0, 0, 0);
  }
}

/* ---- sending ---- */

static uint16_t body_of(xq_board *b, const xq_intent *it, uint8_t *body) {
  switch (it->type) {
    case XQ_T_INFO: {
      uint8_t i;
      body[0] = XQ_PROTO_VERSION;
      body[1] = b->cfg.sensing;
      body[2] = b->cfg.fw[0];
      body[3] = b->cfg.fw[1];
      body[4] = b->cfg.fw[2];
      xq_put_u16(body + 5, b->cfg.scan_hz);
      xq_put_u16(body + 7, b->cfg.heartbeat_ms);
      body[9] = b->cfg.debounce;
      body[10] = caps(b);
      body[11] = b->id_len;
      for (i = 0; i < b->id_len; i++) body[12 + i] = (uint8_t)b->cfg.board_id[i];
      return (uint16_t)(12 + b->id_len);
    }
    case XQ_T_PONG:
      xq_put_u16(body, it->echo);
      xq_put_u32(body + 2, b->now_ms);
      xq_put_u32(body + 6, b->scans);
      xq_put_u16(body + 10, b->rx_bad);
      xq_put_u16(body + 12, b->tx_deferred);
      return 14;
    case XQ_T_SNAPSHOT:
      body[0] = it->a;
      xq_put_u32(body + 1, b->last_scan_ms);
      xq_cells_pack(b->deb.stable, body + 5);
      return 5 + XQ_CELL_BYTES;
    case XQ_T_BUTTON:
      body[0] = it->a;
      body[1] = it->b;
      xq_put_u32(body + 2, it->t_ms);
      return 6;
    default: /* XQ_T_ACK */
      xq_put_u16(body, it->echo);
      body[2] = it->a;
      body[3] = it->b;
      return 4;
  }
}

static void transmit(xq_board *b) {
  uint8_t body[12 + XQ_BOARD_ID_MAX];
  while (b->q_len) {
    xq_intent *it = &b->queue[b->q_head];
    uint16_t len = body_of(b, it, body);
    uint16_t need = (uint16_t)(XQ_WIRE_LEN(len) + b->need_delimiter);
    uint16_t n = 0;
    if (b->hal->tx_room(b->hal->ctx) < need) {
      /* Never block: keep it for a later poll (snapshots will carry the newer state). */
      if (!b->stalled) sat_inc(&b->tx_deferred);
      b->stalled = 1;
      return;
    }
    b->stalled = 0;
    if (b->need_delimiter) {
      b->wire[n++] = 0;
      b->need_delimiter = 0;
    }
    n = (uint16_t)(n + xq_frame_write(b->wire + n, it->type, b->tx_seq++, body, len));
    b->hal->tx_write(b->hal->ctx, b->wire, n);
    if (it->type == XQ_T_SNAPSHOT) {
      b->snapshots_queued--;
      b->last_snapshot_ms = b->now_ms;
      b->change_pending = 0; /* it carried the latest state */
    }
    b->q_head = (uint8_t)((b->q_head + 1) % XQ_QUEUE_LEN);
    b->q_len--;
  }
}

void xq_board_poll(xq_board *b, uint32_t now_us, uint32_t now_ms) {
  uint8_t scanned;
  b->now_ms = now_ms;
  /* The scan first, when due: the rest of the poll (received bytes, a show, a frame to write)
     then never makes it late. */
  scanned = scan(b, now_us);
  receive(b);
  sample_buttons(b);
  show_leds(b, now_us, scanned);
  schedule_snapshots(b);
  /* Writing a frame takes ~0.5 ms on the Mega (building it, COBS, CRC, Serial.write): not in the
     last stretch before a scan is due, where it would make that scan late. Right after a scan
     there is always room, so a frame waits one scan period at most. */
  if (scanned || (int32_t)(b->next_scan_us - now_us) >= (int32_t)XQ_TX_MARGIN_US) transmit(b);
}
