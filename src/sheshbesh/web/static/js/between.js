// Between two games of a match: the game just over, who won it with how many points
// and the match's score, laid over the board for a few seconds with a countdown, or
// until "Next game" (as Backgammon Galaxy and bgammon.org pause between games).
// The server has already started the next game: its clock runs, so the pause is
// short (a delay clock's delay covers it) and the button ends it at once.

import { clear, h } from "./dom.js";

export const PAUSE = 6;  // seconds the result stays over the board

// { t, number, pair } -> { el, show({ game, winner, points, score, length }), hide() }
export function betweenGames({ t, number, pair }) {
  const el = h("div", { class: "between", hidden: true, role: "status", "aria-live": "polite",
    "data-testid": "between-games" });
  let timer = null;
  let left = 0;
  let what = null;

  function render() {
    clear(el).append(h("div", { class: "between-card card" },
      h("h2", {}, what.winner
        ? t("match.game_won", { game: number(what.game), name: what.winner, points: number(what.points) })
        : t("match.game_over", { game: number(what.game) })),
      h("p", { "data-testid": "between-score" },
        t("room.match_score", { score: pair(what.score[0], what.score[1]), length: number(what.length) })),
      h("p", { class: "row" },
        h("button", { type: "button", "data-testid": "next-game", onclick: hide }, t("match.next_game")),
        h("span", { class: "muted", "data-testid": "countdown" }, t("match.next_in", { seconds: number(left) })))));
  }

  function hide() {
    clearInterval(timer);
    timer = null;
    el.hidden = true;
  }

  return {
    el,
    show(game) {
      what = game;
      left = PAUSE;
      el.hidden = false;
      render();
      clearInterval(timer);
      timer = setInterval(() => {
        left -= 1;
        if (left <= 0) hide();
        else render();
      }, 1000);
    },
    hide,
  };
}
