// A discussion page kept up to date: one server-sent-events stream (discussions/stream.py).
// A "delta" adds the new posts, replaces the What stands card and the badges of the posts
// whose status changed, and reads out (aria-live) the sentences about the reader's own
// posts; a "resync" asks for the whole section again, after a random pause of up to two
// seconds so that a hidden post does not make every open page ask at the same instant.
(function () {
  "use strict";
  var root = document.getElementById("discussion-live");
  if (!root || !window.EventSource || root.dataset.started) return;
  root.dataset.started = "1";
  var notices = document.getElementById("live-notices");
  var pending = null;

  function standing() { return document.getElementById("standing"); }
  function seen() { var s = standing(); return s ? s.dataset.v || "" : ""; }
  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content.firstElementChild;
  }
  // An instructor's rows hold the hide form: its CSRF token is the page's (rendered once
  // for every instructor, the row has none of its own).
  function withToken(element) {
    var token = document.querySelector('input[name="csrfmiddlewaretoken"]');
    if (token) {
      element.querySelectorAll('form[method="post"]').forEach(function (form) {
        if (!form.querySelector('input[name="csrfmiddlewaretoken"]')) form.prepend(token.cloneNode());
      });
    }
    return element;
  }
  function processed(element) { if (window.htmx) window.htmx.process(element); return withToken(element); }

  function say(text) {
    if (!notices || !text) return;
    var line = document.createElement("p");
    line.textContent = text;
    notices.appendChild(line);
    while (notices.children.length > 3) notices.removeChild(notices.firstChild);
  }

  // What the reader is in the middle of inside the section: the forms and notes they
  // opened, the words they typed (an instructor's reason to hide a post), the field they
  // are in. A resync replaces the section; this goes back into the new one.
  function inProgress(section) {
    var open = [];
    section.querySelectorAll("details[open]").forEach(function (details) {
      var post = details.closest("[id^='post-']");
      var siblings = post ? post.querySelectorAll("details") : [];
      open.push({ post: post && post.id, at: Array.prototype.indexOf.call(siblings, details) });
    });
    var typed = [];
    section.querySelectorAll("input[id], textarea[id]").forEach(function (field) {
      if (field.type !== "hidden" && field.value !== field.defaultValue) {
        typed.push({ id: field.id, value: field.value });
      }
    });
    var active = document.activeElement;
    var focused = active && active.id && section.contains(active) ? active.id : null;
    return { open: open, typed: typed, focused: focused };
  }
  function carryOn(kept) {
    kept.open.forEach(function (entry) {
      var post = entry.post && document.getElementById(entry.post);
      var details = post && post.querySelectorAll("details")[entry.at];
      if (details) details.open = true;
    });
    kept.typed.forEach(function (entry) {
      var field = document.getElementById(entry.id);
      if (field) field.value = entry.value;
    });
    var focused = kept.focused && document.getElementById(kept.focused);
    if (focused) focused.focus();
  }

  function resync() {
    if (pending) return;
    pending = setTimeout(function () {
      pending = null;
      fetch(root.dataset.standing + "?v=" + encodeURIComponent(seen()), { credentials: "same-origin" })
        .then(function (response) { return response.status === 200 ? response.text() : null; })
        .then(function (html) {
          var fresh = html && fragment(html);
          var old = standing();
          if (fresh && old && fresh.id === "standing") {
            var kept = inProgress(old);
            old.replaceWith(processed(fresh));
            carryOn(kept);
          }
        })
        .catch(function () { /* the next change tries again */ });
    }, Math.random() * 2000);
  }

  function listFor(post, section) {
    if (post.target) {
      var target = document.getElementById("post-" + post.target);
      if (!target) return null;
      var item = target.parentElement;
      var replies = item.querySelector(":scope > ul.replies");
      if (!replies) {
        replies = document.createElement("ul");
        replies.className = "posts replies";
        item.appendChild(replies);
      }
      return replies;
    }
    var side = section.querySelector('[data-side="' + post.side + '"]');
    if (!side) return null;
    var list = side.querySelector(":scope > ul.posts");
    if (!list) {
      var empty = side.querySelector(":scope > p.muted");
      if (empty) empty.remove();
      list = document.createElement("ul");
      list.className = "posts";
      side.appendChild(list);
    }
    return list;
  }

  function mark(id, state, cruxWord) {
    var head = document.getElementById("post-" + id + "-head");
    if (!head) return;
    var badge = head.querySelector(".badge.in, .badge.out, .badge.undec");
    if (badge) { badge.className = "badge " + state.badge; badge.textContent = state.text; }
    var crux = head.querySelector(".badge:not(.in):not(.out):not(.undec):not(.type)");
    if (state.crux && !crux) {
      crux = document.createElement("span");
      crux.className = "badge";
      crux.textContent = cruxWord;
      head.appendChild(crux);
    } else if (!state.crux && crux) {
      crux.remove();
    }
    var formal = document.querySelector("#post-" + id + " > details:not(.questions):not(.moderate) > p");
    if (formal) formal.textContent = state.formal;
  }

  function apply(delta) {
    var section = standing();
    if (!section) return;
    var card = document.getElementById("what-stands");
    var summary = fragment(delta.summary);
    if (card && summary) card.replaceWith(processed(summary));
    delta.mine.forEach(function (id) {
      document.querySelectorAll('[data-author-of="' + id + '"]').forEach(function (el) { el.textContent = delta.you; });
    });
    var lost = false;
    delta["new"].forEach(function (post) {
      if (document.getElementById("post-" + post.id)) return;
      var list = listFor(post, section);
      if (!list) { lost = true; return; }
      list.appendChild(processed(fragment(post.html)));
    });
    Object.keys(delta.statuses).forEach(function (id) { mark(id, delta.statuses[id], delta.crux_word); });
    section.dataset.v = delta.v;
    if (delta.thesis_notice) say(delta.thesis_notice);
    delta.notices.forEach(say);
    if (lost) resync();
  }

  var source = new EventSource(root.dataset.stream + "?v=" + encodeURIComponent(seen()));
  source.addEventListener("delta", function (event) {
    try { apply(JSON.parse(event.data)); } catch (error) { resync(); }
  });
  source.addEventListener("resync", function (event) {
    resync();
    try { JSON.parse(event.data).notices.forEach(say); } catch (error) { /* none to say */ }
  });
  source.addEventListener("stream_refused", function (event) {
    try { say(JSON.parse(event.data).detail); } catch (error) { /* nothing to say */ }
  });
  // A closed tab gives its place back at once (each account has a few live pages).
  window.addEventListener("pagehide", function () { source.close(); });
})();
