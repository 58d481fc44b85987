// A phone at the table and efuda's server, simulated in Node for the outbox's tests.
//
// The outbox itself is the real one (static/js/outbox-core.js); around it:
// - Server: records a deal once per client_id, refuses a deal whose content is wrong, refuses
//   an entry whose author is not who the phone is logged in as, and, for an entry sent again
//   after a refusal (X-Efuda-Since), asks when a deal with the same content was recorded since
//   it was made — as tournaments/views/entry.py and views/outbox.py do.
// - Phone: one store of items (IndexedDB) shared by its tabs, one lock (navigator.locks), a
//   connection that can drop or lose a reply after the server committed, the person the
//   server knows the phone as (its session cookie), and the person the service worker keeps
//   pages for (static/js/sw.js: a kept page opens only for that person).
// - Tab: a page served to one author, with its own outbox (as outbox.js makes one per page) and
//   the form being filled in (its draft survives a reload, static/js/outbox.js).
import { createOutbox, memoryStore, serialLock, sinceOf, WAITING, ATTENTION, EDITING } from "../../static/js/outbox-core.js";

export { WAITING, ATTENTION, EDITING };

export class Server {
  constructor() {
    this.deals = []; // {clientId, content, author, at}
    this.clock = 0;
  }

  tick() {
    this.clock += 1;
    return this.clock;
  }

  /* One post of the outbox, as the entry view answers it. */
  handle(item, who, options) {
    if (!who) return { kind: "login" };
    if (item.author !== who) return { kind: "author" };
    const content = item.body.find((pair) => pair[0] === "content")[1];
    const again = this.deals.find((d) => d.clientId === item.id);
    if (again) return { kind: "sent", reply: { ok: true, repeat: true } };
    const since = sinceOf(item);
    if (since) {
      const similar = this.deals.filter((d) => d.content === content && d.at >= Number(since));
      if (similar.length) {
        return { kind: "similar", similar: similar.map((d) => ({ at: d.at })), mine: content };
      }
    }
    if (content.endsWith("!")) {
      const problems = [{ field: "adjutant", code: "adjutant_missing", message: { msgid: "x" } }];
      return { kind: "refused", problems, reply: { ok: false, form: options.live ? "<form>" : undefined } };
    }
    this.deals.push({ clientId: item.id, content, author: who, at: this.tick() });
    return { kind: "sent", reply: { ok: true, repeat: false } };
  }
}

export class Phone {
  constructor(server) {
    this.server = server;
    this.store = memoryStore();
    this.lock = serialLock();
    this.online = true;
    this.loseNextReply = false;
    this.who = null; // the person the server knows this phone as
    this.swWho = ""; // the person the service worker keeps pages for
    this.tabs = [];
    this.sentBy = []; // [tab author, item author] of every post: a tab sends only its author's
    this.drafts = []; // forms a page was filling in when it went (drafts, newest last)
    this.lost = 0;
  }

  transport(tab) {
    return {
      begin: async () => this.online,
      send: async (item, options) => {
        this.sentBy.push([tab.author, item.author]);
        if (!this.online) return { kind: "offline" };
        const result = this.server.handle(item, this.who, options);
        if (this.loseNextReply && result.kind === "sent") {
          this.loseNextReply = false; // committed on the server, the reply never arrives
          this.lost += 1;
          return { kind: "offline" };
        }
        return result;
      }
    };
  }

  outboxFor(tab) {
    return createOutbox({
      store: this.store, transport: this.transport(tab), lock: this.lock, now: () => this.server.tick()
    });
  }

  /* A page opened (or reloaded): from the network online, else from the service worker,
     which opens it only for the person it kept it for. */
  pageAuthor(previous) {
    if (this.online) {
      this.swWho = this.who || "";
      return this.who;
    }
    return previous && previous === this.swWho ? previous : null;
  }

  openTab() {
    const tab = { phone: this, author: null, outbox: null, form: null };
    tab.author = this.pageAuthor(null);
    tab.outbox = this.outboxFor(tab);
    this.restoreDraft(tab);
    this.tabs.push(tab);
    return tab;
  }

  /* A form's draft belongs to one person: it comes back only on a page of theirs. */
  restoreDraft(tab) {
    if (tab.form || !tab.author) return;
    const at = this.drafts.map((f) => f.author).lastIndexOf(tab.author);
    if (at >= 0) tab.form = this.drafts.splice(at, 1)[0];
  }

  async reload(tab) {
    const keep = tab.form;
    tab.author = this.pageAuthor(tab.author);
    tab.outbox = this.outboxFor(tab);
    tab.form = null;
    if (keep && keep.author === tab.author) tab.form = keep;
    else if (keep) this.drafts.push(keep);
    this.restoreDraft(tab);
    if (tab.author) await tab.outbox.release(tab.author);
  }
}

let serial = 0;
export function newId() {
  serial += 1;
  return "id-" + serial;
}

/* What a Save posts: the form's fields (here one: its content) and its id. */
export function entryOf(tab) {
  return {
    id: tab.form.id,
    author: tab.author,
    page: "/entry/",
    url: "/entry/",
    body: [["client_id", tab.form.id], ["content", tab.form.content]],
    summary: tab.form.content
  };
}
