// One seat of Nathan Sturtevant's Hearts program (github.com/nathansttt/hearts, OpenSpiel's
// "xinxin"), answering one decision per line on standard input. Built against a checkout of
// that repository by `python -m games.bots.sturtevant build SOURCE`; benchmark only.
//
// A line (whitespace-separated integers, cards numbered as in games.engine: suit * 13 + rank,
// suits clubs, diamonds, spades, hearts, ranks 2 to ace):
//
//   seed seat pass_dir rules simulations worlds epsilon_per_mille
//   52 cards: the hands as dealt, seat 0's 13 first
//   n, then n cards: the passes made so far, in the program's order (seat 0's three first)
//   m, then m cards: the cards played so far, in order
//
// pass_dir is the program's: 1 left, -1 right, 2 across, 0 hold. The answer is one line: the
// card the seat chooses (the next card of its pass during the pass), or "error <text>", then
// the CPU time the decision took, in microseconds.
//
// The hands of the other seats are placeholders that the caller makes up: the program builds
// what the seat knows from the seat's own cards, its passes and the public play, and samples
// its worlds from that (HeartsGameState::getiiGameState), which the caller's test checks.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "Hearts.h"
#include "iiMonteCarlo.h"

using namespace hearts;

unsigned int sturtevant_seat_seed = 1;  // what the build made its clock-seeded generators read

namespace {

const int kOurSuitToTheirs[4] = {CLUBS, DIAMONDS, SPADES, HEARTS};

card TheirCard(int ours) {
  return Deck::getcard(kOurSuitToTheirs[ours / 13], 12 - ours % 13);
}

int OurCard(card theirs) {
  int suit = Deck::getsuit(theirs);
  int our_suit = 0;
  for (int s = 0; s < 4; s++)
    if (kOurSuitToTheirs[s] == suit) our_suit = s;
  return our_suit * 13 + (12 - Deck::getrank(theirs));
}

struct Seat {
  UCT *uct;
  HeartsPlayout *playout;
  iiMonteCarlo *monte_carlo;
};

int Decide(std::istringstream &in) {
  long seed;
  int seat, pass_dir, rules, simulations, worlds, epsilon;
  if (!(in >> seed >> seat >> pass_dir >> rules >> simulations >> worlds >> epsilon))
    throw std::string("the line does not start with seed seat pass_dir rules simulations worlds epsilon");
  if (seat < 0 || seat > 3 || worlds < 1 || simulations < worlds)
    throw std::string("bad seat, worlds or simulations");
  std::vector<std::vector<card> > hands(4);
  for (int i = 0; i < 52; i++) {
    int c;
    if (!(in >> c) || c < 0 || c > 51) throw std::string("52 dealt cards expected");
    hands[i / 13].push_back(TheirCard(c));
  }
  std::vector<int> passes, plays;
  int n;
  if (!(in >> n) || n < 0 || n > 12) throw std::string("bad number of passes");
  for (int i = 0, c; i < n; i++) {
    if (!(in >> c) || c < 0 || c > 51) throw std::string("bad pass");
    passes.push_back(c);
  }
  if (!(in >> n) || n < 0 || n > 51) throw std::string("bad number of plays");
  for (int i = 0, c; i < n; i++) {
    if (!(in >> c) || c < 0 || c > 51) throw std::string("bad play");
    plays.push_back(c);
  }

  sturtevant_seat_seed = (unsigned int)seed;
  srandom((unsigned int)seed);
  HeartsGameState *game = new HeartsGameState((int)seed);
  game->setRules(rules);
  game->deletePlayers();
  std::vector<Seat> seats;
  for (int x = 0; x < 4; x++) {
    Seat s;
    s.uct = new UCT(simulations / worlds, 0.4);
    s.playout = new HeartsPlayout();
    s.uct->setPlayoutModule(s.playout);
    s.uct->setEpsilonPlayout(epsilon / 1000.0);
    s.monte_carlo = new iiMonteCarlo(s.uct, worlds);
    s.monte_carlo->setUseThreads(false);
    SafeSimpleHeartsPlayer *player = new SafeSimpleHeartsPlayer(s.monte_carlo);
    player->setModelLevel(2);
    game->addPlayer(player);
    player->setGameState(game);
    seats.push_back(s);
  }
  game->Reset();
  game->SetInitialCards(hands);
  game->setPassDir(pass_dir);
  game->setFirstPlayer(0);
  std::vector<int> moves(passes);
  moves.insert(moves.end(), plays.begin(), plays.end());
  for (size_t i = 0; i < moves.size(); i++) {
    Move *move = new CardMove(TheirCard(moves[i]), game->getNextPlayerNum());
    game->ApplyMove(move);
    game->freeMove(move);
  }
  if ((int)game->getNextPlayerNum() != seat) {
    std::ostringstream text;
    text << "seat " << game->getNextPlayerNum() << " is to act, not " << seat;
    throw text.str();
  }
  CardMove *chosen = (CardMove *)game->getNextPlayer()->Play();
  int answer = OurCard(chosen->c);
  game->freeMove(chosen);
  game->deletePlayers();
  delete game;
  for (size_t x = 0; x < seats.size(); x++) {
    delete seats[x].monte_carlo;
    delete seats[x].uct;
    delete seats[x].playout;
  }
  return answer;
}

}  // namespace

// Each decision is made in a child process, a copy of this one as it was before any decision,
// so that nothing a search leaves behind (the program's static caches, its heap) can reach the
// next one. The parent reads each line into one fixed buffer and allocates nothing.
static char line[1 << 16];

int main() {
  while (std::fgets(line, sizeof line, stdin) != NULL) {
    std::fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
      std::printf("error fork failed\n");
      continue;
    }
    if (child == 0) {
      std::istringstream in{std::string(line)};
      try {
        int answer = Decide(in);
        std::printf("%d", answer);
      } catch (const std::string &error) {
        std::printf("error %s", error.c_str());
      }
      std::fflush(stdout);
      _exit(0);
    }
    int status = 0;
    struct rusage usage;
    wait4(child, &status, 0, &usage);
    if (!WIFEXITED(status)) std::printf("error the decision's process died");
    long micros = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L + usage.ru_utime.tv_usec +
                  usage.ru_stime.tv_usec;
    std::printf(" %ld\n", micros);
    std::fflush(stdout);
  }
  return 0;
}
