// The coaching page: send a message, read the NDJSON stream, show the coach's
// words as they grow, and act on proposals. No build step, no framework.
//
// Safety rule: text written by the model or the student only ever reaches the
// page through textContent / value, never innerHTML. The HTML that htmx swaps in
// (rail, draft, proposal card) is rendered and escaped by Django templates.
(function () {
  "use strict";

  const root = document.getElementById("coach");
  if (!root) return;

  const strings = JSON.parse(document.getElementById("coach-strings").textContent);
  const transcript = document.getElementById("transcript");
  const composer = document.getElementById("composer");
  const textbox = document.getElementById("message");
  const status = document.getElementById("coach-status");
  const errorBox = document.getElementById("coach-error");
  const errorText = errorBox.querySelector(".error-text");
  const retryButton = errorBox.querySelector(".retry");
  let busy = false;
  let retry = null; // the last failed action, run again by the Retry button

  // --- reading an NDJSON response -------------------------------------------

  // Yields one parsed object per line as the bytes arrive, so the caller can
  // paint each delta while the rest of the answer is still on its way.
  async function* ndjson(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield JSON.parse(line);
      }
    }
    buffer += decoder.decode();
    if (buffer.trim()) yield JSON.parse(buffer);
  }

  // `status` is the HTTP status of a refused request (0 for a failure inside
  // the stream or on the network). A 4xx refusal will not change on a retry:
  // its plain `detail` sentence says what to fix instead.
  class CoachError extends Error {
    constructor(code, detail, status, coachMessage) {
      super(detail || code);
      this.code = code;
      this.detail = detail || "";
      this.status = status || 0;
      // What the coach said about a refusal (what an instructor's criteria still ask for).
      this.coachMessage = coachMessage || null;
    }

    get retryable() {
      if (this.code === "authentication_required") return true; // sign in again, then retry
      return !(this.status >= 400 && this.status < 500);
    }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": root.dataset.csrf,
        Accept: "application/x-ndjson, application/json",
      },
      body: JSON.stringify(body),
    });
  }

  // A failed request may still explain itself in JSON ({error, detail}).
  async function failure(response) {
    try {
      const body = await response.json();
      return new CoachError(
        body.error || "http_" + response.status,
        body.detail,
        response.status,
        body.coach_message,
      );
    } catch (_) {
      return new CoachError("http_" + response.status, "", response.status);
    }
  }

  async function postJSON(url, body) {
    const response = await post(url, body);
    if (!response.ok) throw await failure(response);
    return response.json();
  }

  // --- the page's pieces ------------------------------------------------------

  function currentStep() {
    const rail = document.getElementById("rail");
    return rail ? rail.dataset.step : root.dataset.step;
  }

  function isComplete() {
    const rail = document.getElementById("rail");
    return Boolean(rail && rail.dataset.complete === "true");
  }

  function addMessage(role, text) {
    const item = document.createElement("li");
    item.className = "msg msg-" + role;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = role === "user" ? strings.you : strings.coach;
    const body = document.createElement("p");
    body.className = "text";
    body.textContent = text;
    item.append(who, body);
    transcript.append(item);
    return item;
  }

  // --- keeping the newest message in view -----------------------------------

  // The transcript is a scrolling box and new words land at its bottom. Follow
  // them while the student is at (or near) the bottom; once they scroll up to
  // read, leave the box where they put it (a button offers the way back) until
  // they return to the bottom or act: send, confirm or reject.
  const NEAR_BOTTOM_PX = 48;
  const jumpButton = document.getElementById("jump-newest");
  let following = true;

  function nearBottom() {
    return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight <= NEAR_BOTTOM_PX;
  }

  function scrollToNewest() {
    following = true;
    transcript.scrollTop = transcript.scrollHeight;
    if (jumpButton) jumpButton.hidden = true;
  }

  // Only the student's own scrolling changes scrollTop here: growing content
  // does not, and every change is followed at once (below) while following.
  transcript.addEventListener(
    "scroll",
    () => {
      following = nearBottom();
      if (following && jumpButton) jumpButton.hidden = true;
    },
    { passive: true },
  );

  // Any change to the transcript (a new bubble, a streamed delta) goes through
  // here, however the code that made it wrote it.
  new MutationObserver(() => {
    if (following) transcript.scrollTop = transcript.scrollHeight;
    else if (jumpButton) jumpButton.hidden = false;
  }).observe(transcript, { childList: true, subtree: true, characterData: true });

  if (jumpButton) jumpButton.addEventListener("click", scrollToNewest);

  function setBusy(value, message) {
    busy = value;
    root.setAttribute("aria-busy", String(value));
    if (value) root.dataset.state = "busy";
    // Buttons are disabled; text boxes only become read-only, so the student's
    // focus and words stay where they were.
    for (const control of root.querySelectorAll("button")) {
      if (!control.closest("#coach-error, #jump-newest")) control.disabled = value;
    }
    for (const box of root.querySelectorAll("textarea")) box.readOnly = value;
    status.textContent = message || "";
  }

  function showError(error, again) {
    const code = error && error.code;
    const refused = error instanceof CoachError && !error.retryable;
    errorText.textContent =
      strings.errors[code] || (refused && error.detail) || strings.errors.generic;
    errorBox.dataset.code = code || "network";
    errorBox.hidden = false;
    // A refusal would only be refused again: no Retry, back to the words to fix.
    retry = refused ? null : again;
    retryButton.hidden = refused;
    if (refused) textbox.focus();
    else retryButton.focus();
  }

  function hideError() {
    errorBox.hidden = true;
    delete errorBox.dataset.code;
    retry = null;
  }

  // Re-render the rail, the draft, the proposal card and the "Put it on trial"
  // slot from the server: one template renders them on first load and after
  // every change (the card and the slot come out of band).
  // `saved`: the field just saved, whose editor may close; any other editor the
  // student had open stays open with the words typed in it, since a reply that
  // ends while they type must not close it under them or lose their text.
  function refresh(saved) {
    if (!window.htmx) {
      window.location.reload();
      return Promise.resolve();
    }
    const editing = [];
    for (const form of document.querySelectorAll("#sidebar form.typed-field")) {
      const details = form.closest("details");
      if (form.dataset.field === saved || !details || !details.open) continue;
      editing.push({ field: form.dataset.field, value: form.querySelector("textarea").value });
    }
    // Words the student changed in the "Use my words" box stay, unless the step moved on.
    const ownBox = document.getElementById("own-words-text");
    const ownEdit = ownBox && ownBox.value !== ownBox.defaultValue ? ownBox.value : null;
    const stepBefore = currentStep();
    return window.htmx
      .ajax("GET", root.dataset.refreshUrl, { target: "#sidebar", swap: "outerHTML" })
      .then(() => {
        for (const { field, value } of editing) {
          const form = document.querySelector(`#sidebar form.typed-field[data-field="${field}"]`);
          if (!form) continue;
          form.closest("details").open = true;
          form.querySelector("textarea").value = value;
        }
        const box = document.getElementById("own-words-text");
        if (box && ownEdit !== null && currentStep() === stepBefore) box.value = ownEdit;
        showCompletion();
      });
  }

  // Once the rebuttal is accepted there is nothing left to send. A new
  // proposal card is announced, since it appears outside the live transcript.
  function showCompletion() {
    const complete = isComplete();
    composer.hidden = complete;
    document.getElementById("coach-complete").hidden = !complete;
    const card = document.getElementById("proposal");
    if (card && !card.hidden && !busy) status.textContent = strings.proposal;
  }

  // Where focus goes after the control that had it was swapped away.
  function focusNext() {
    if (isComplete()) document.getElementById("coach-complete").focus();
    else textbox.focus();
  }

  // --- a coach turn ---------------------------------------------------------

  // `attempt.storedId` learns the id the server gave the student's message, as
  // soon as it is stored: a retry sends it back (retry_of) so the server reuses
  // that message instead of storing the same words twice.
  async function streamTurn(message, attempt) {
    const body = {
      argument_id: Number(root.dataset.argumentId),
      message: message,
      step: currentStep(),
    };
    if (attempt.storedId) body.retry_of = attempt.storedId;
    const response = await post(root.dataset.coachUrl, body);
    if (!response.ok) throw await failure(response);
    let bubble = null;
    for await (const line of ndjson(response)) {
      if (line.user_message_id) attempt.storedId = line.user_message_id;
      if (line.error) throw new CoachError(line.error, line.detail);
      if (line.type === "delta") {
        bubble = bubble || addMessage("assistant", "");
        bubble.classList.add("streaming");
        // A delta carries only the new characters: append them (a text node
        // each, so a long reply costs the page O(length), not O(length²)).
        bubble.querySelector(".text").append(line.text);
      } else if (line.type === "result") {
        bubble = bubble || addMessage("assistant", "");
        bubble.classList.remove("streaming");
        bubble.querySelector(".text").textContent = line.result.assistantText;
        return { bubble, result: line.result };
      }
    }
    if (bubble) bubble.remove();
    throw new CoachError("coach_stream_failed");
  }

  // Every action ends here, when the page is up to date again (its refresh included):
  // `data-state="ready"` on #coach is the one signal to wait for (tests do).
  function ready() {
    if (!busy) root.dataset.state = "ready";
  }

  // `retryOf`: the stored id of these same words, when this turn retries a failed one.
  async function turn(message, retryOf) {
    if (busy) return;
    hideError();
    const sent = message ? addMessage("user", message) : null;
    if (sent) scrollToNewest();
    const attempt = { storedId: retryOf || null };
    setBusy(true, strings.thinking);
    try {
      await streamTurn(message, attempt);
      if (message) {
        textbox.value = "";
        updateCounter();
      }
      setBusy(false);
      await refresh();
    } catch (error) {
      // Keep the student's words: they stay in the textbox and, marked as not
      // sent, in the transcript; Retry sends them again.
      for (const partial of transcript.querySelectorAll(".msg.streaming")) partial.remove();
      if (sent && error instanceof CoachError && !error.retryable) sent.remove();
      else if (sent) sent.classList.add("failed");
      setBusy(false);
      showError(error, () => {
        if (sent) sent.remove();
        return turn(message, attempt.storedId);
      });
      if (error.code === "coach_step_mismatch") await refresh();
    } finally {
      ready();
    }
  }

  // --- proposals and typed fields -------------------------------------------

  async function decide(action, value) {
    if (busy) return;
    hideError();
    scrollToNewest(); // the coach's answer to this decision is what comes next
    setBusy(true, strings.saving);
    const body = { action: action };
    if (value !== undefined) body.value = value;
    try {
      const outcome = await postJSON(root.dataset.proposalUrl, body);
      setBusy(false);
      // A rejection is answered, not met with silence: the coach's stored reply asks what to change.
      if (outcome.acknowledgement) addMessage("assistant", outcome.acknowledgement.text);
      await refresh();
      focusNext();
      if (action === "accept" && outcome.advanced && !outcome.completed) await turn("");
    } catch (error) {
      setBusy(false);
      if (!coachExplains(error)) showError(error, () => decide(action, value));
      // The proposal was decided elsewhere (another tab), or the assignment became hints
      // only: show the draft as it is.
      if (["no_pending_proposal", "argument_complete", "proposals_off"].includes(error.code)) {
        await refresh();
      }
    } finally {
      ready();
    }
  }

  // A refusal the coach explained in the conversation (what the instructor's criteria still
  // ask for): its words are the answer, so no separate error box; the student's words stay.
  function coachExplains(error) {
    if (!(error instanceof CoachError) || !error.coachMessage) return false;
    hideError();
    addMessage("assistant", error.coachMessage.text);
    scrollToNewest();
    return true;
  }

  // Where the coach may not propose (hints only): the student's own words go into the draft
  // and the step moves on, without leaving the page; then the coach opens the next step.
  async function useMyWords(form) {
    if (busy) return;
    hideError();
    const box = form.querySelector("textarea");
    setBusy(true, strings.saving);
    try {
      const outcome = await postJSON(root.dataset.advanceUrl, { value: box.value });
      setBusy(false);
      scrollToNewest();
      await refresh();
      focusNext();
      // With the coach off for the assignment, nobody opens the next step.
      if (outcome.advanced && !outcome.completed && root.dataset.coachOn === "true") {
        await turn("");
      }
    } catch (error) {
      setBusy(false);
      if (!coachExplains(error)) showError(error, () => useMyWords(form));
      box.focus();
    } finally {
      ready();
    }
  }

  async function saveField(form) {
    if (busy) return;
    hideError();
    const field = form.dataset.field;
    const value = form.querySelector("textarea").value;
    setBusy(true, strings.saving);
    try {
      await postJSON(root.dataset.draftUrl, { field: field, value: value });
      setBusy(false);
      await refresh(field);
      status.textContent = strings.saved;
    } catch (error) {
      setBusy(false);
      showError(error, () => saveField(form));
    } finally {
      ready();
    }
  }

  // --- wiring ---------------------------------------------------------------

  composer.addEventListener("submit", (event) => {
    event.preventDefault();
    const message = textbox.value.trim();
    if (message) turn(message);
  });

  // The server refuses a message over the limit; maxlength stops typing at it,
  // and the counter says how close it is before that happens.
  const counter = document.getElementById("message-count");
  function updateCounter() {
    const limit = Number(textbox.maxLength);
    if (!counter || !(limit > 0)) return;
    const count = textbox.value.length;
    counter.hidden = count < limit * 0.8;
    counter.textContent = strings.counter
      .replace("{count}", count.toLocaleString())
      .replace("{limit}", limit.toLocaleString());
  }
  textbox.addEventListener("input", updateCounter);

  // Enter sends, Shift+Enter starts a new line: what chat users expect.
  textbox.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      composer.requestSubmit();
    }
  });

  retryButton.addEventListener("click", () => {
    const again = retry;
    hideError();
    if (again) again();
  });

  // The proposal card and the draft are swapped in by htmx, so listen on the root.
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || !root.contains(button)) return;
    const card = button.closest("#proposal");
    const action = button.dataset.action;
    if (action === "edit") {
      const editor = card.querySelector(".proposal-editor");
      editor.hidden = false;
      card.querySelector(".proposal-value").hidden = true;
      button.hidden = true;
      editor.querySelector("textarea").focus();
    } else if (action === "accept") {
      const editor = card.querySelector(".proposal-editor");
      decide("accept", editor.hidden ? undefined : editor.querySelector("textarea").value);
    } else if (action === "reject") {
      decide("reject");
    }
  });

  root.addEventListener("submit", (event) => {
    const own = event.target.closest("form.own-words-form");
    if (own) {
      event.preventDefault();
      useMyWords(own);
      return;
    }
    const form = event.target.closest("form.typed-field");
    if (!form) return;
    event.preventDefault();
    saveField(form);
  });

  // A reload opens on the latest exchange, not on the oldest messages.
  scrollToNewest();
  ready();

  // A new argument (or a new step with nothing said yet) opens with the coach's question.
  if (root.dataset.autostart === "true" && !isComplete()) turn("");
})();
