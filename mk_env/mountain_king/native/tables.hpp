// The fixed tables of one game (options + content pack + board side), as the Python engine computes them:
// the board's geometry and placement tables, the content, the action layout and the pyramids. Built once per
// game from the Python ``Game`` (mk_env/mountain_king/rules/native_tables.py), so the compiled engine reads the
// same data files and the same derived tables as the Python one and holds no content of its own.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mk {

constexpr int N_RESOURCES = 7, N_TOKEN_KINDS = 10, N_CLANS = 3, N_TIERS = 5, N_SMOOT = 10, N_HORDE = 12;
constexpr int STONE = 0, IRON = 1, HEARTSTONE = 2, COIN = 3, CART = 4, HAMMER = 5, RUNE = 6, CLAN_CART0 = 7;
//: the resource each token kind counts as (clan carts are carts)
constexpr int TOKEN_RESOURCE[N_TOKEN_KINDS] = {0, 1, 2, 3, 4, 5, 6, CART, CART, CART};

//: square kinds (SquareKind)
enum Square : int8_t { SQ_EMPTY = 0, SQ_GATE = 1, SQ_TUNNEL = 2, SQ_GREAT_HALL = 3 };

//: the phases (Phase), numbered as in saves
enum Phase : int {
    GATE = 0, DRAFT = 1, STEP1 = 2, WORKSHOP = 3, SPELL_OPTION = 4, SPELL_SMOOT = 5, SPELL_HORDE = 6,
    SPELL_PEDESTAL = 7, SPELL_DIG = 8, SPELL_STATUE = 9, STEP2 = 10, BRIBE = 11, RECRUIT_PEDESTAL = 12,
    DIG_MINERAL = 13, DIG_PEDESTAL = 14, DIG_WORKSHOP = 15, STEP3 = 16, STEP4 = 17, STATUE_DEST = 18,
    GAME_OVER = 19, PAY = 20, N_PHASES = 21
};

//: the blocks of the action space (Block), in layout order
enum Block : int {
    B_PASS, B_GATE, B_DRAFT, B_CAST, B_SPELL_OPTION, B_ACTIVATE_WORKSHOP, B_WORKSHOP_USE, B_TRADE, B_RECRUIT,
    B_BRIBE, B_PEDESTAL, B_DIG, B_MINERAL, B_ESTABLISH, B_HALL, B_SELECT_STATUE, B_MOVE_STATUE, B_SMOOT_SLOT,
    B_HORDE_SLOT, N_BLOCKS
};

//: the spell effects the engine implements (spells.SPELL_EFFECTS), by number
enum Effect : int {
    E_GAIN_CHOICE, E_BRIBE_ANY, E_DIG_NOW, E_ASCENSION, E_ACTIVATE_TROLL, E_COLLECT_BRIBES, E_TAKE_PEDESTAL,
    E_FREE_STATUE_MOVES, E_EXTRA_WORKSHOP, E_IGNORE_RUBBLE, N_EFFECTS
};

//: every placement of a set of pieces (geometry.PlacementTable) and, per square, the placements listed under
//: it (geometry.SquareIndex: tunnels beside a square, halls covering it), as compressed rows
struct Placements {
    int count = 0, max_cells = 0, max_nbrs = 0;
    std::vector<int> piece, size, cells, anchor, nbrs, rubble;  // cells [count*max_cells], nbrs [count*max_nbrs]
    std::vector<int> sites_ptr, sites;                          // workshop sites beside each placement
    std::vector<int> index_ptr, index;                          // per square (n+2 pointers): placement ids
};

//: a list field's place in the state's list pool (its length, then ``cap`` entries)
struct ListSlot {
    int offset = 0, cap = 0;
};

struct Tables {
    // -- the players ----------------------------------------------------------------------------------
    int n_players = 0;
    bool team_mode = false;
    std::vector<int> storage_of;
    int n_storages = 0;
    std::vector<std::vector<int>> teammates;
    // -- the board ----------------------------------------------------------------------------------------
    int n_squares = 0;  // the sentinel square is n_squares
    std::vector<int> tier, neighbours;  // neighbours [(n+1)*4]
    std::vector<int> site_squares, buried_init, statue_spots;
    std::vector<int> start_sq, start_mark, start_clockwise;
    Placements tunnels, halls;
    // -- the content --------------------------------------------------------------------------------------
    std::vector<int> tunnel_count, tunnel_honour;  // tunnel_honour [(max size+1)*3]: by size and mineral
    std::vector<int> statue_values, hall_low, hall_high, pedestal_tokens, coronation_tokens;
    int pedestal_multiplier = 2, statues_per_clan = 0, pedestals_per_clan = 0;
    std::array<int, N_RESOURCES> supply_init{};
    std::vector<int> workshop_count, wild_carts_only;
    int workshop_selection = 0;  // 0 random, 1 no_duplicates, 2 the chosen list
    std::vector<int> chosen_workshops;
    std::vector<int> spell_effect, spell_cascade, spell_moves;
    std::vector<std::vector<std::array<int, N_RESOURCES>>> spell_options;
    int n_cards = 0, n_starters = 0;
    std::vector<int> card_level, card_symbols;  // card_symbols [n_cards*10]
    std::vector<std::vector<int>> card_starting;
    int trade_rate = 4, set_size = 3, retire_bribes = 4, max_trolls = 10, runes_to_disintegrate = 3;
    int spellbook_size = 3;
    // -- the action layout -------------------------------------------------------------------------------
    int action_size = 0;
    std::array<int, N_BLOCKS> offset{}, block_size{};
    std::vector<int> block_of;  // per action number
    int n_trade_gives = 0;
    std::vector<int> trade_gives;  // [n_trade_gives*7]
    //: the same gives as their parts: give g is the (resource, count) pairs give_parts[give_ptr[g] .. give_ptr[g+1])
    std::vector<std::pair<int, int>> give_parts;
    std::vector<int> give_ptr;
    std::vector<int> conv_workshop, conv_give, conv_gain, conv_move_slot, conv_move_kind;  // give/gain [J*7]
    // -- the pyramids ----------------------------------------------------------------------------------------
    std::vector<std::vector<int>> smoot_support, smoot_cone, horde_beneath;
    std::vector<int> horde_row, recruit_slots;
    std::vector<std::string> phase_names;
    // -- the state's shape (fields.FIELDS, in order) ---------------------------------------------------------
    std::vector<std::string> array_names;
    std::vector<char> array_dtypes;  // numpy kind: 'b' int8, 'h' int16, 'i' int32, '?' bool
    std::vector<std::vector<int>> array_shapes;
    std::vector<size_t> array_offsets, array_bytes;
    size_t arena_bytes = 0;
    std::vector<ListSlot> lists;  // see ListField
    size_t pool_entries = 0;

    void finish();  // lays out the arena and the list pool from the shapes above, and the gives' parts
};

}  // namespace mk
