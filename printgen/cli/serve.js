"use strict";
const games = document.getElementById("games");
const messages = document.getElementById("messages");
const command = document.getElementById("command");
const statusLine = document.getElementById("status");
const pictures = new Map();  // picture path -> its <img>, kept from one build to the next
let version = -1;

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function picture(shown, alt, seen) {
  const key = shown.src.split("?")[0];
  let img = pictures.get(key);
  if (!img) {
    img = make("img");
    pictures.set(key, img);
  }
  if (img.getAttribute("src") !== shown.src) img.setAttribute("src", shown.src);
  img.alt = alt;
  img.width = shown.width;
  img.height = shown.height;
  seen.add(key);
  return img;
}

function list(className, heading, lines) {
  const box = make("section", className);
  box.append(make("h2", "", heading));
  const items = make("ul");
  for (const line of lines) items.append(make("li", "", line));
  box.append(items);
  return box;
}

function showGame(game, seen) {
  const section = make("section", "game");
  section.append(make("h2", "", game.title), make("p", "definition", game.definition));
  for (const pdf of game.pdfs) {
    const part = make("div", "pdf");
    const heading = make("h3");
    const link = make("a", "", pdf.name);
    link.href = pdf.href;
    link.target = "_blank";
    link.rel = "noopener";
    heading.append(link, ` \u2013 ${pdf.pages.length} page${pdf.pages.length === 1 ? "" : "s"}`);
    const pages = make("div", "pages");
    pdf.pages.forEach((page, n) => pages.append(picture(page, `${pdf.name}, page ${n + 1}`, seen)));
    part.append(heading, pages);
    section.append(part);
  }
  for (const deck of game.decks) {
    const part = make("div", "pdf");
    part.append(make("h3", "", `${deck.name}: each face, and the back they share`));
    const faces = make("div", "faces");
    const back = make("figure", "back");
    back.append(picture(deck.back, `${deck.name}, back`, seen), make("figcaption", "", "back"));
    faces.append(back);
    for (const face of deck.faces) {
      const figure = make("figure");
      const caption = face.quantity > 1 ? `${face.name} \u00d7${face.quantity}` : face.name;
      figure.append(picture(face, `${deck.name}, ${face.name}`, seen), make("figcaption", "", caption));
      faces.append(figure);
    }
    part.append(faces);
    section.append(part);
  }
  return section;
}

function show(state) {
  const seen = new Set();
  const boxes = [];
  if (state.problems.length) {
    boxes.push(list("problems", "Problems: the pages below are from the last build that worked",
                    state.problems));
  }
  if (state.warnings.length) boxes.push(list("warnings", "Warnings", state.warnings));
  messages.replaceChildren(...boxes);
  games.replaceChildren(...state.games.map(game => showGame(game, seen)));
  for (const key of [...pictures.keys()]) if (!seen.has(key)) pictures.delete(key);
  statusLine.textContent = `${state.status} (${new Date().toLocaleTimeString()})`;
  statusLine.className = state.problems.length ? "stale" : "";
  command.textContent = state.command;
  document.body.dataset.version = state.version;
}

async function poll() {
  try {
    const answer = await fetch("/state", {cache: "no-store"});
    const state = await answer.json();
    if (state.version !== version) {
      version = state.version;
      show(state);
    }
  } catch (error) {
    statusLine.textContent = "printgen is not answering: stopped, or busy building";
    statusLine.className = "stale";
  }
  setTimeout(poll, 500);
}

poll();
