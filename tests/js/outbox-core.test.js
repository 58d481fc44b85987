// The outbox's logic case by case (static/js/outbox-core.js), in Node without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  ATTENTION, EDITING, WAITING, createOutbox, draftLoad, draftSave, draftDrop, draftsForget,
  fetchTransport, lateRefusal, memoryStore, sinceOf
} from "../../static/js/outbox-core.js";

function entry(id, author, content) {
  return { id, author, page: "/p/", url: "/p/", body: [["client_id", id], ["content", content]] };
}

/* A transport answering from a list of results (the last one repeats). */
function scripted(...results) {
  const sent = [];
  return {
    sent,
    begin: async () => true,
    send: async (item, options) => {
      sent.push([item.id, Boolean(options && options.live)]);
      return results.length > 1 ? results.shift() : results[0];
    }
  };
}

test("a double tap on Save makes one item, sent once", async () => {
  const transport = scripted({ kind: "offline" });
  const outbox = createOutbox({ store: memoryStore(), transport });
  const e = entry("a", "u:1", "deal");
  const [one, two] = await Promise.all([outbox.save(e), outbox.save(e)]);
  assert.equal(one.id, two.id);
  await outbox.save(e);
  assert.equal((await outbox.items("u:1")).length, 1);
});

test("a refused online Save leaves the outbox; a refused queued one waits for attention", async () => {
  const refused = { kind: "refused", problems: [{ code: "adjutant_missing" }] };
  const outbox = createOutbox({ store: memoryStore(), transport: scripted(refused) });
  await outbox.save(entry("live", "u:1", "x"));
  const live = await outbox.flush("u:1", "live");
  assert.equal(live.outcome.live.kind, "refused");
  assert.deepEqual(await outbox.items("u:1"), []);
  await outbox.save(entry("queued", "u:1", "x"));
  await outbox.flush("u:1");
  const [item] = await outbox.items("u:1");
  assert.equal(item.state, ATTENTION);
  assert.equal(item.refusals, 1);
  assert.deepEqual(item.problems, [{ code: "adjutant_missing" }]);
  assert.equal(sinceOf(item), String(item.created)); // sent again: efuda checks for a twin
  // Corrected in the form and refused again: it stays with the form, out of the list.
  await outbox.correct("queued", "u:1");
  await outbox.save(entry("queued", "u:1", "y"));
  await outbox.flush("u:1", "queued");
  assert.equal((await outbox.items("u:1"))[0].state, EDITING);
  await outbox.release("u:1");
  assert.equal((await outbox.items("u:1"))[0].state, ATTENTION);
});

test("each item is sent and shown only for its author", async () => {
  const store = memoryStore();
  const transport = scripted({ kind: "sent", reply: {} });
  const outbox = createOutbox({ store, transport });
  await store.put({ ...entry("a", "u:1", "x"), state: WAITING, order: 1, refusals: 0 });
  await store.put({ ...entry("b", "u:2", "y"), state: WAITING, order: 2, refusals: 0 });
  await outbox.flush("u:2");
  assert.deepEqual(transport.sent, [["b", false]]);
  assert.deepEqual((await outbox.items("u:2")).map((r) => r.id), []);
  assert.deepEqual((await outbox.items("u:1")).map((r) => r.id), ["a"]);
  assert.equal(await outbox.discard("a", "u:2"), false); // not theirs to discard
  assert.equal(await outbox.forget("u:2"), 0);
  assert.equal((await outbox.counts("u:2")).others, 1);
  assert.equal(await outbox.forget("u:1"), 1);
});

test("an author refused by the server keeps the item and stops", async () => {
  const outbox = createOutbox({ store: memoryStore(), transport: scripted({ kind: "author" }) });
  await outbox.save(entry("a", "u:1", "x"));
  await outbox.save(entry("b", "u:1", "y"));
  const result = await outbox.flush("u:1");
  assert.equal(result.stop, "author");
  assert.deepEqual((await outbox.items("u:1")).map((r) => r.state), [WAITING, WAITING]);
});

test("a similar deal asks; send anyway says so to the server", async () => {
  const similar = { kind: "similar", similar: [{ seq: 14 }], mine: "+2" };
  const outbox = createOutbox({ store: memoryStore(), transport: scripted(similar) });
  await outbox.save(entry("a", "u:1", "x"));
  await outbox.flush("u:1");
  const [item] = await outbox.items("u:1");
  assert.deepEqual([item.state, item.similar, item.mine], [ATTENTION, [{ seq: 14 }], "+2"]);
  const again = await outbox.resend("a", "u:1", { duplicateOk: true });
  assert.equal(again.duplicateOk, true);
  assert.equal(sinceOf(again), "");
});

test("an item kept before authors is claimed only explicitly", async () => {
  const store = memoryStore();
  const outbox = createOutbox({ store, transport: scripted({ kind: "offline" }) });
  await store.put({ ...entry("old", "", "x"), state: ATTENTION, order: 1, refusals: 0 });
  assert.deepEqual(await outbox.items("u:1"), []);
  assert.equal((await outbox.unclaimed()).length, 1);
  const mine = await outbox.claim("old", "u:1");
  assert.deepEqual([mine.author, mine.state], ["u:1", WAITING]);
  assert.equal(await outbox.claim("old", "u:2"), null);
});

function storage() {
  const map = new Map();
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() { return map.size; }
  };
}

test("drafts belong to one person and one page, one per form", () => {
  const kv = storage();
  draftSave(kv, "u:1", "/s/1/", "a", [["bid", "13"]], 1);
  draftSave(kv, "u:1", "/s/1/", "b", [["bid", "14"]], 2);
  draftSave(kv, "u:2", "/s/1/", "c", [["bid", "15"]], 3);
  draftSave(kv, "u:1", "/s/2/", "d", [["bid", "16"]], 4);
  assert.equal(draftLoad(kv, "u:1", "/s/1/").id, "b");
  assert.equal(draftLoad(kv, "u:1", "/s/1/", ["b"]).id, "a");
  assert.equal(draftLoad(kv, "u:3", "/s/1/"), null);
  draftDrop(kv, "u:1", "/s/1/", "b");
  assert.equal(draftLoad(kv, "u:1", "/s/1/").id, "a");
  assert.equal(draftsForget(kv, "u:1"), 2);
  assert.equal(draftLoad(kv, "u:2", "/s/1/").id, "c");
});

test("the fetch transport turns efuda's replies into outcomes", async () => {
  const replies = [];
  const fake = async (url, options) => {
    if (url === "/token/") return { ok: true, json: async () => ({ csrf: "t" }) };
    replies.push(options.headers);
    const [status, body, type] = next.shift();
    return {
      ok: status === 200, status, type: type || "basic",
      headers: { get: () => (body ? "application/json" : "text/html") },
      json: async () => body
    };
  };
  let next = [];
  const transport = fetchTransport({ fetch: fake, tokenUrl: "/token/" });
  assert.equal(await transport.begin(), true);
  const item = { ...entry("a", "u:1", "x"), refusals: 1, created: 5, duplicateOk: false };
  const cases = [
    [[200, { ok: true, seq: 3 }], "sent"],
    [[422, { ok: false, problems: [] }], "refused"],
    [[409, { ok: false, code: "author" }], "author"],
    [[409, { ok: false, code: "similar", similar: [] }], "similar"],
    [[0, null, "opaqueredirect"], "login"],
    [[503, { ok: false, busy: true }], "server"],
    [[500, null], "server"]
  ];
  for (const [reply, kind] of cases) {
    next = [reply];
    assert.equal((await transport.send(item, { live: true })).kind, kind);
  }
  assert.equal(replies[0]["X-Efuda-Author"], "u:1");
  assert.equal(replies[0]["X-Efuda-Since"], "5");
  assert.equal(replies[0]["X-Efuda-Outbox"], "live");
  assert.equal(replies[0]["X-Efuda-Made"], "5"); // when the phone made it, on every post
  assert.equal(replies[0]["X-Efuda-Late"], undefined);
  next = [[200, { ok: true }]];
  await transport.send({ ...item, late: true }, {});
  assert.equal(replies[replies.length - 1]["X-Efuda-Late"], "1");
  next = [[403, null], [200, { ok: true }]]; // a stale token: a fresh one, then sent
  assert.equal((await transport.send(item, {})).kind, "sent");
  const offline = fetchTransport({ fetch: async () => { throw new Error("down"); }, tokenUrl: "/t/" });
  assert.equal(await offline.begin(), false);
  assert.equal((await offline.send(item, {})).kind, "offline");
});

test("a deal refused because its round was finished stays for the staff, who send it once as late", async () => {
  const late = { kind: "refused", problems: [{ code: "round_finished_late" }] };
  const transport = scripted(late, late, { kind: "sent", reply: { ok: true } });
  const outbox = createOutbox({ store: memoryStore(), transport });
  await outbox.save(entry("d", "pin:7", "deal"));
  const first = await outbox.flush("pin:7", "d"); // even an online Save: kept, not dropped
  assert.equal(first.outcome.d.late, true);
  let [item] = await outbox.items("pin:7");
  assert.equal(item.state, ATTENTION);
  assert.ok(lateRefusal(item.problems) && !lateRefusal([{ code: "round_finished" }]));
  await outbox.flush("pin:7"); // nothing waits: nothing is sent again by itself
  assert.equal(transport.sent.length, 1);
  await outbox.resend("d", "pin:7", { late: true }); // the staff, logged in on this phone
  [item] = await outbox.items("pin:7");
  assert.equal(item.late, true);
  await outbox.flush("pin:7"); // refused once more (say, not staff after all): kept, not late
  [item] = await outbox.items("pin:7");
  assert.equal(item.state, ATTENTION);
  assert.equal(item.late, false);
  await outbox.resend("d", "pin:7", { late: true });
  const sent = await outbox.flush("pin:7");
  assert.equal(sent.sent, 1);
  assert.deepEqual(await outbox.items("pin:7"), []);
});
