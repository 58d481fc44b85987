/* The outbox as the scorekeeper sees it (#outbox, templates/components/outbox.html): the badge
   ("未送信 n件"), the status line, the prompt to log in again, the deals waiting to be sent
   with their points as the phone scores them (static/js/outbox-points.js; also added, marked,
   into the page's running totals: static/js/outbox-totals.js), the deals efuda scored
   otherwise than the phone, and the list of deals that need attention, with their actions
   (data-outbox-action, handled by static/js/outbox.js). Texts come from the box's data-t-*
   attributes; refusals stored as codes are rendered by efuda in the reader's language. A
   module of static/js/outbox.js. */

import { pendingTotals, pointsLine, scoreItems } from "./outbox-points.js";
import { markTotals, pageContext } from "./outbox-totals.js";

/* The outbox's view. ctx: box (#outbox), core (static/js/outbox-core.js), outbox (its items),
   transport (for a fresh CSRF token), author and page (of this page), stopped() (why the last
   round of sending stopped early, or null). */
export function createList(ctx) {
  const { box, core, outbox, transport, author, page } = ctx;
  const cfg = box.dataset;
  const badge = box.querySelector("[data-outbox=badge]");
  const status = box.querySelector("[data-outbox=status]");
  const login = box.querySelector("[data-outbox=login]");
  const attention = box.querySelector("[data-outbox=attention]");
  const list = attention.querySelector("ul");
  const reopened = box.querySelector("[data-outbox=reopened]");
  const waitingBox = box.querySelector("[data-outbox=waiting]");
  const differBox = box.querySelector("[data-outbox=differ]");
  const texts = new Map(); // a stored problem → its text in this page's language

  function text(key, values) {
    let t = cfg["t" + key[0].toUpperCase() + key.slice(1)] || key;
    for (const [name, value] of Object.entries(values || {})) {
      t = t.split("{" + name + "}").join(String(value));
    }
    return t;
  }

  function timeOf(ms) {
    return new Date(ms).toLocaleTimeString(document.documentElement.lang || [], {
      hour: "2-digit", minute: "2-digit"
    });
  }

  function say(message) {
    status.textContent = message || "";
    status.hidden = !message;
  }

  /* The stored problems rendered by efuda in this page's language (one request for all);
     without a connection, the message as efuda first wrote it (English). */
  async function renderTexts(problems) {
    const lang = document.documentElement.lang;
    const wanted = problems.filter((p) => !texts.has(lang + JSON.stringify(p)));
    if (wanted.length && cfg.textsUrl) {
      try {
        const token = await transport.freshToken();
        const response = await fetch(cfg.textsUrl, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": token || "" },
          body: JSON.stringify({ problems: wanted })
        });
        const reply = await response.json();
        wanted.forEach((p, i) => texts.set(lang + JSON.stringify(p), reply.texts[i]));
      } catch (e) {
        /* offline: below */
      }
    }
    return problems.map((p) => texts.get(lang + JSON.stringify(p)) || plain(p));
  }

  function plain(problem) {
    let message = (problem.message && (problem.message.msgid || problem.message.text)) || "";
    for (const [name, value] of Object.entries(problem.params || {})) {
      message = message.split("%(" + name + ")s").join(String(value)).split("%(" + name + ")d").join(String(value));
    }
    return message;
  }

  /* The badge, the prompts and the attention list as the outbox holds them now. */
  async function render() {
    const own = await outbox.items(author);
    const orphans = author ? await outbox.unclaimed() : [];
    const waiting = own.filter((r) => r.state === core.WAITING);
    const refused = own.filter((r) => r.state === core.ATTENTION).concat(orphans, await lateOnes());
    showPoints(waiting);
    badge.textContent = text("waiting", { n: waiting.length });
    badge.hidden = waiting.length === 0;
    box.classList.toggle("has-waiting", waiting.length > 0);
    const stopped = ctx.stopped();
    login.hidden = !((stopped === "login" || stopped === "author") && (waiting.length || refused.length));
    login.querySelector("[data-outbox=login-why]").textContent =
      stopped === "author" ? text("author") : text("login");
    const problems = [];
    refused.forEach((r) => { (r.problems || []).forEach((p) => problems.push(p)); });
    const rendered = await renderTexts(problems);
    let at = 0;
    const nodes = refused.map((r) => {
      const mine = rendered.slice(at, at + (r.problems || []).length);
      at += (r.problems || []).length;
      return item(r, mine);
    });
    list.replaceChildren(...nodes);
    attention.hidden = refused.length === 0;
    box.hidden = !(waiting.length || refused.length || !status.hidden || !reopened.hidden ||
      !login.hidden || !differBox.hidden);
    return own;
  }

  /* On the staff's page of a finished round's table: this phone's player's deals refused
     because the round was finished, for the staff to count. */
  async function lateOnes() {
    const found = [];
    for (const other of (cfg.lateAuthors || "").split(" ").filter((a) => a && a !== author)) {
      (await outbox.items(other)).forEach((r) => {
        if (r.state === core.ATTENTION && core.lateRefusal(r.problems)) found.push(r);
      });
    }
    return found;
  }

  function paragraph(className, content) {
    const p = document.createElement("p");
    p.className = className;
    p.textContent = content;
    return p;
  }

  function button(label, action, id) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.outboxAction = action;
    b.dataset.id = id;
    return b;
  }

  /* The waiting deals with their points, and the page's totals with them added. Only ever a
     view: whatever goes wrong here leaves the outbox (keeping, sending) as it is. */
  function showPoints(waiting) {
    let scored = new Map();
    try {
      const context = pageContext();
      scored = scoreItems(waiting, { page, context });
      markTotals(context, pendingTotals(waiting, scored, page), text);
    } catch (e) {
      /* the deals are listed below without their points; efuda scores them when they arrive */
    }
    waitingBox.querySelector("ul").replaceChildren(...waiting.map((r) => waitingItem(r, scored.get(r.id))));
    waitingBox.hidden = waiting.length === 0;
  }

  /* A deal waiting to be sent: 未送信, when, what, and its points as the phone scores them. */
  function waitingItem(record, answer) {
    const li = document.createElement("li");
    li.dataset.id = record.id;
    const what = paragraph("outbox-what", " " + timeOf(record.created) + " " + (record.summary || ""));
    what.prepend(Object.assign(document.createElement("span"), { className: "outbox-mark", textContent: text("unsent") }));
    li.append(what);
    if (answer && answer.result && answer.result.redeal) {
      li.append(paragraph("outbox-points", text("redeal")));
    } else if (answer && answer.points) {
      li.append(paragraph("outbox-points", pointsLine(answer.points, answer.order, record.scoring.names)));
    } else {
      li.append(paragraph("outbox-why", text("unscored")));
    }
    return li;
  }

  /* efuda scored a deal sent from here otherwise than the phone did: its points count. */
  function differ(entry) {
    differBox.querySelector("ul").append(Object.assign(document.createElement("li"), {
      textContent: text("differ", entry)
    }));
    differBox.hidden = false;
    box.hidden = false;
  }

  function differSeen() {
    differBox.querySelector("ul").replaceChildren();
    differBox.hidden = true;
    return render();
  }

  function item(record, messages) {
    const li = document.createElement("li");
    li.dataset.id = record.id;
    li.append(paragraph("outbox-what", timeOf(record.created) + " " + (record.summary || "")));
    const actions = document.createElement("p");
    actions.className = "row";
    if (!record.author) {
      messages.forEach((m) => li.append(paragraph("outbox-why", m)));
      actions.append(button(text("claim"), "claim", record.id));
    } else if (record.similar) {
      li.append(paragraph("outbox-why", text("similar")));
      li.append(paragraph("outbox-mine", text("mine", { points: record.mine })));
      record.similar.forEach((s) => {
        li.append(paragraph("outbox-theirs", text("theirs", s)));
      });
      actions.append(button(text("sendAnyway"), "send-anyway", record.id));
      actions.append(button(text("alreadyRecorded"), "already", record.id));
    } else if (core.lateRefusal(record.problems)) {
      messages.forEach((m) => li.append(paragraph("outbox-why outbox-late", m)));
      if (record.author !== author) {
        li.append(paragraph("outbox-why", text("lateWhy")));
        const b = button(text("late"), "late", record.id);
        b.dataset.author = record.author;
        actions.append(b);
      } else {
        const a = document.createElement("a");
        a.href = cfg.staffLogin;
        a.textContent = text("staffLogin");
        actions.append(a);
      }
    } else {
      messages.forEach((m) => li.append(paragraph("outbox-why", m)));
      if (record.page === page) {
        actions.append(button(text("correct"), "correct", record.id));
      } else {
        const a = document.createElement("a");
        a.href = record.page;
        a.textContent = text("otherPage");
        actions.append(a);
      }
    }
    if (!record.similar && record.author === author) actions.append(button(text("discard"), "discard", record.id));
    li.append(actions);
    return li;
  }

  return { text, timeOf, say, render, differ, differSeen, saying: () => status.textContent };
}
