// The outbox against a model of the server, driven by fast-check (model-based testing).
//
// Random interleavings of: entering a deal (right or wrong), Save (and a double tap on it),
// correcting in the form, the connection dropping and returning, a reply lost after the server
// committed, reloading a tab, a second tab, sending in the background, correcting a refused
// entry, answering "is it the same deal?", entering a refused deal again by hand, logging out
// (send / keep / discard), the login expiring, another person logging in. Then the phone is
// given a connection and every person comes back to send what is theirs. Checked:
// - every deal a person meant is recorded exactly once, under that person;
// - nothing else is recorded (no wrong deal, no second copy, no blank);
// - a tab only ever sends its own person's entries, and no page of one person stays open or
//   opens (from the service worker) for the next.
// A failure prints fast-check's seed and the shortest sequence of steps that fails; run it
// again with FC_SEED=<seed> (and FC_PATH=<path>). FC_RUNS sets the number of runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { ATTENTION, Phone, Server, entryOf, newId } from "./phone.js";

const USERS = ["u:1", "u:2", "u:3"];
const RUNS = Number(process.env.FC_RUNS || 1000);

// ---- The model: what each person meant to record ------------------------------------------

class Intents {
  constructor() {
    this.all = new Map(); // content → {author, status: "pending" | "discarded"}
    this.n = 0;
  }

  add(author) {
    this.n += 1;
    const content = "deal-" + this.n;
    this.all.set(content, { author, status: "pending" });
    return content;
  }

  discard(content) {
    const intent = this.all.get(valid(content));
    if (intent) intent.status = "discarded";
  }
}

function valid(content) {
  return content.replace(/!$/, "");
}

function contentOf(item) {
  return item.body.find((pair) => pair[0] === "content")[1];
}

function recorded(server, content) {
  return server.deals.filter((d) => d.content === valid(content)).length;
}

// ---- What the page does around the outbox (static/js/outbox.js, logout.js) ----------------

/* Save in the form, as outbox.js does: keep, send, then the form follows the outcome. */
async function save(tab, double) {
  const entry = entryOf(tab);
  const before = await tab.phone.store.get(entry.id);
  if (double) {
    await Promise.all([tab.outbox.save(entry), tab.outbox.save(entry)]);
  } else {
    await tab.outbox.save(entry);
  }
  const result = await tab.outbox.flush(tab.author, entry.id);
  const outcome = result.outcome[entry.id];
  if (outcome && outcome.kind === "refused") {
    // Back in its form, messages beside it; an online Save refused never stays in the outbox
    // (only an entry refused when sent from the outbox is kept, and corrected from there).
    const after = await tab.phone.store.get(entry.id);
    assert.ok(!after || (before && before.refusals > 0), "a refused online Save kept in the outbox");
    return;
  }
  tab.form = null; // sent, or kept by the outbox: the form is cleared for the next deal
  if (result.stop === "author") await tab.phone.reload(tab); // someone else's phone now
}

async function flushTab(tab) {
  if (!tab.author) return;
  const result = await tab.outbox.flush(tab.author);
  if (result.stop === "author") await tab.phone.reload(tab);
}

async function logout(real, model, choice) {
  const phone = real.phone;
  const author = phone.who;
  const page = phone.outboxFor({ author }); // the logout page's own outbox
  if (choice === "send") await page.flush(author);
  if (choice === "discard") {
    for (const item of await page.items(author)) model.discard(contentOf(item));
    await page.forget(author);
  }
  // The person's drafts go; the forms being filled in that no item carries are lost with them.
  const carried = new Set((await page.items(author)).map((item) => item.id));
  for (const tab of phone.tabs) {
    if (tab.form && tab.form.author === author && !carried.has(tab.form.id)) {
      model.discard(tab.form.content);
    }
    if (tab.form && tab.form.author === author) tab.form = null;
  }
  for (const form of phone.drafts.filter((f) => f.author === author)) {
    if (!carried.has(form.id)) model.discard(form.content);
  }
  phone.drafts = phone.drafts.filter((f) => f.author !== author);
  phone.who = null;
  phone.swWho = ""; // the worker forgets every kept page
  for (const tab of phone.tabs) {
    if (tab.author === author) await phone.reload(tab); // its tabs reload: logged out
  }
}

// ---- Commands --------------------------------------------------------------------------------

function tabOf(real, i) {
  return real.phone.tabs.length ? real.phone.tabs[i % real.phone.tabs.length] : null;
}

class Enter {
  constructor(i, right) { this.i = i; this.right = right; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    if (!tab || !tab.author || tab.form) return;
    const content = model.add(tab.author);
    tab.form = { id: newId(), content: this.right ? content : content + "!", author: tab.author };
  }
  toString() { return `Enter(${this.i}, ${this.right ? "right" : "wrong"})`; }
}

class Save {
  constructor(i, double) { this.i = i; this.double = double; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    if (!tab || !tab.author || !tab.form) return;
    await save(tab, this.double);
  }
  toString() { return this.double ? `DoubleTap(${this.i})` : `Save(${this.i})`; }
}

class Fix {
  constructor(i) { this.i = i; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    if (tab && tab.form) tab.form.content = valid(tab.form.content);
  }
  toString() { return `Fix(${this.i})`; }
}

class Connection {
  constructor(online) { this.online = online; }
  check() { return true; }
  async run(model, real) { real.phone.online = this.online; }
  toString() { return this.online ? "Online" : "Offline"; }
}

class LoseReply {
  check() { return true; }
  async run(model, real) { real.phone.loseNextReply = true; }
  toString() { return "LoseNextReply"; }
}

class Reload {
  constructor(i) { this.i = i; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    if (tab) await real.phone.reload(tab);
  }
  toString() { return `Reload(${this.i})`; }
}

class OpenTab {
  check() { return true; }
  async run(model, real) {
    if (real.phone.tabs.length < 3) real.phone.openTab();
  }
  toString() { return "SecondTab"; }
}

class Background {
  constructor(i) { this.i = i; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    if (tab) await flushTab(tab);
  }
  toString() { return `Flush(${this.i})`; }
}

class Correct {
  constructor(i) { this.i = i; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    if (!tab || !tab.author || tab.form || !real.phone.online) return;
    const item = (await tab.outbox.items(tab.author))
      .find((r) => r.state === ATTENTION && !r.similar);
    if (!item) return;
    const open = await tab.outbox.correct(item.id, tab.author);
    tab.form = { id: open.id, content: contentOf(open), author: tab.author };
  }
  toString() { return `Correct(${this.i})`; }
}

/* "Is it the same deal?": the scorekeeper knows whether the deal they meant is on efuda. */
class Answer {
  constructor(i) { this.i = i; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    if (!tab || !tab.author) return;
    await answer(tab, real.server);
  }
  toString() { return `Answer(${this.i})`; }
}

async function answer(tab, server) {
  for (const item of await tab.outbox.items(tab.author)) {
    if (item.state !== ATTENTION || !item.similar) continue;
    if (recorded(server, contentOf(item))) await tab.outbox.discard(item.id, tab.author);
    else await tab.outbox.resend(item.id, tab.author, { duplicateOk: true });
  }
}

/* The first case: a refused entry is entered again by hand, and recorded. */
class ReEnter {
  constructor(i) { this.i = i; }
  check() { return true; }
  async run(model, real) {
    const tab = tabOf(real, this.i);
    const phone = real.phone;
    if (!tab || !tab.author || tab.form || !phone.online || phone.loseNextReply) return;
    if (tab.author !== phone.who) return;
    const item = (await tab.outbox.items(tab.author))
      .find((r) => r.state === ATTENTION && !r.similar && !recorded(real.server, contentOf(r)));
    if (!item) return;
    tab.form = { id: newId(), content: valid(contentOf(item)), author: tab.author };
    await save(tab, false);
  }
  toString() { return `ReEnter(${this.i})`; }
}

class Logout {
  constructor(choice) { this.choice = choice; }
  check() { return true; }
  async run(model, real) {
    if (!real.phone.who || !real.phone.online) return;
    await logout(real, model, this.choice);
  }
  toString() { return `Logout(${this.choice})`; }
}

class Login {
  constructor(user) { this.user = user; }
  check() { return true; }
  async run(model, real) {
    const phone = real.phone;
    if (phone.who || !phone.online) return;
    phone.who = this.user;
    phone.swWho = this.user; // the page after the login says who: the worker forgets others' pages
    // The page of another person left open (a login that expired) reloads when the phone is
    // picked up (outbox.js asks who the phone is on "visibilitychange").
    for (const tab of phone.tabs) {
      if (tab.author && tab.author !== phone.who) await phone.reload(tab);
    }
  }
  toString() { return `Login(${this.user})`; }
}

class Expire {
  check() { return true; }
  async run(model, real) { real.phone.who = null; }
  toString() { return "LoginExpires"; }
}

const tabIndex = fc.nat({ max: 2 });
const commands = [
  tabIndex.chain((i) => fc.boolean().map((right) => new Enter(i, right))),
  tabIndex.chain((i) => fc.boolean().map((double) => new Save(i, double))),
  tabIndex.map((i) => new Fix(i)),
  fc.boolean().map((online) => new Connection(online)),
  fc.constant(new LoseReply()),
  tabIndex.map((i) => new Reload(i)),
  fc.constant(new OpenTab()),
  tabIndex.map((i) => new Background(i)),
  tabIndex.map((i) => new Correct(i)),
  tabIndex.map((i) => new Answer(i)),
  tabIndex.map((i) => new ReEnter(i)),
  fc.constantFrom("send", "keep", "discard").map((c) => new Logout(c)),
  fc.constantFrom(...USERS).map((u) => new Login(u)),
  fc.constant(new Expire())
];

// ---- Invariants after every step, and the end of the evening --------------------------------

async function invariants(model, real) {
  const { phone, server } = real;
  const contents = server.deals.map((d) => d.content);
  assert.equal(new Set(contents).size, contents.length, "a deal recorded twice: " + contents);
  for (const deal of server.deals) {
    const intent = model.all.get(deal.content);
    assert.ok(intent, "recorded what nobody meant: " + deal.content);
    assert.equal(deal.author, intent.author, "recorded under someone else: " + deal.content);
  }
  for (const [tabAuthor, itemAuthor] of phone.sentBy) {
    assert.equal(itemAuthor, tabAuthor, "a page sent someone else's entry");
  }
  for (const tab of phone.tabs) {
    if (!tab.author) continue;
    // Once someone is logged in, every open page is theirs (a page left open by a person
    // whose login expired reloads when the next one logs in).
    assert.ok(!phone.who || tab.author === phone.who, "a page of one person open for another");
    for (const item of await tab.outbox.items(tab.author)) {
      assert.equal(item.author, tab.author, "an item of someone else on a page");
    }
  }
}

/* The phone gets a connection back and every person comes to send what is theirs. */
async function settle(model, real) {
  const { phone } = real;
  phone.online = true;
  phone.loseNextReply = false;
  const authors = new Set([...model.all.values()].map((intent) => intent.author));
  for (const item of await phone.store.all()) authors.add(item.author);
  for (const author of authors) {
    if (phone.who && phone.who !== author) await logout(real, model, "keep");
    phone.who = author;
    for (const tab of phone.tabs) {
      if (tab.author !== author) await phone.reload(tab);
    }
    const tab = phone.openTab();
    // Every form of this person comes back (a page per draft) and is saved, corrected.
    for (;;) {
      const t = phone.tabs.find((x) => x.author === author && x.form);
      if (!t) {
        if (!phone.drafts.some((f) => f.author === author)) break;
        phone.openTab();
        continue;
      }
      t.form.content = valid(t.form.content);
      await save(t, false);
    }
    for (let round = 0; round < 30; round += 1) {
      await tab.outbox.release(author);
      await flushTab(tab);
      await answer(tab, real.server);
      const left = await tab.outbox.items(author);
      for (const item of left.filter((r) => r.state === ATTENTION && !r.similar)) {
        const open = await tab.outbox.correct(item.id, author);
        tab.form = { id: open.id, content: valid(contentOf(open)), author };
        await save(tab, false);
      }
      if (!(await tab.outbox.items(author)).length) break;
    }
    const left = await tab.outbox.items(author);
    assert.deepEqual(left.map((r) => [r.state, contentOf(r)]), [], "left on the phone for " + author);
    await invariants(model, real);
  }
  for (const [content, intent] of model.all) {
    const n = recorded(real.server, content);
    if (intent.status === "pending") {
      assert.equal(n, 1, `${content} of ${intent.author} recorded ${n} times`);
    } else {
      assert.ok(n <= 1, `${content} recorded ${n} times`);
    }
  }
}

test("every deal meant is recorded once, under its author, and nothing else", async () => {
  const started = Date.now();
  let steps = 0;
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: "max" }), fc.constantFrom(...USERS),
      async (cmds, first) => {
        const server = new Server();
        const phone = new Phone(server);
        phone.who = first;
        phone.openTab();
        const model = new Intents();
        const real = { server, phone };
        await fc.asyncModelRun(() => ({ model, real }), [...cmds].map((cmd) => ({
          check: () => true,
          run: async (m, r) => {
            steps += 1;
            await cmd.run(m, r);
            await invariants(m, r);
          },
          toString: () => cmd.toString()
        })));
        await settle(model, real);
      }),
    {
      numRuns: RUNS,
      seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined,
      path: process.env.FC_PATH,
      verbose: 1
    }
  );
  const seconds = (Date.now() - started) / 1000;
  console.log(`outbox model: ${RUNS} runs, ${steps} steps, ${seconds.toFixed(1)} s`);
});
