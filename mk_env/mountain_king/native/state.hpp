// One game in progress, compiled: every field of mk_env/mountain_king/rules/fields.py. The array fields live
// in one arena (so a clone is one copy, and Python reads each as a numpy view of the same bytes), the list
// fields in a pool of fixed capacity inside it, the record of decisions in its own vector.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "../../core/native/chance.hpp"
#include "tables.hpp"

namespace mk {

//: the array fields, in the order of fields.FIELDS (the Python side checks the names)
enum ArrayField : int {
    F_KIND, F_TILE, F_REGION, F_HALL_AT, F_STATUE, F_PEDESTAL, F_BURIED, F_REACH, F_GATE_SQ, F_HALL_ALTAR,
    F_WORKSHOP, F_WORKSHOP_SUPPLY, F_TUNNEL_SUPPLY, F_SUPPLY, F_HORDE, F_HORDE_BRIBES, F_HORDE_PEDESTAL, F_BAG,
    F_SPELLBOOK, F_SPELL_RUNES, F_TRACK_VALUE, F_TRACK_TAKEN, F_CORONATION, F_STORAGE, F_STORAGE_PEDESTALS,
    F_SMOOT, F_TOKENS, F_HONOUR, F_PEDESTAL_POINTS, F_PEDESTAL_TOKENS, N_ARRAY_FIELDS
};

//: the list fields kept in the pool: the three horde decks, the spell deck, the tile shapes, the sites used
//: this turn, the coronation tokens left, then each player's draft deck and each player's draft hand
enum ListField : int {
    L_DECK0, L_DECK1, L_DECK2, L_SPELL_DECK, L_TILE_SHAPE, L_USED_SITES, L_CORONATION_LEFT, L_DRAFT_DECK0
};
inline int draft_deck_list(int p) { return L_DRAFT_DECK0 + p; }
inline int draft_hand_list(const Tables& t, int p) { return L_DRAFT_DECK0 + t.n_players + p; }

constexpr int NONE = -1;
constexpr int MAX_OWED = 12;

//: the sub-decision under way (vocabulary.Pending); NONE: not part of it; a tuple's length -1: None
struct Pending {
    int spell = NONE, horde_slot = NONE, smoot_slot = NONE;
    int n_bribes = NONE;
    int bribes[MAX_OWED] = {};
    int recruit_card = NONE, dig = NONE;
    int dig_for_spell = NONE;  // 1 spell, 0 step 3, NONE
    int n_sites = NONE;
    int sites[MAX_OWED] = {};
    int statue_square = NONE, statue_from_phase = NONE;

    bool empty() const {
        return spell == NONE && horde_slot == NONE && smoot_slot == NONE && n_bribes == NONE &&
               recruit_card == NONE && dig == NONE && dig_for_spell == NONE && n_sites == NONE &&
               statue_square == NONE && statue_from_phase == NONE;
    }
    bool operator==(const Pending& o) const {
        if (spell != o.spell || horde_slot != o.horde_slot || smoot_slot != o.smoot_slot ||
            n_bribes != o.n_bribes || recruit_card != o.recruit_card || dig != o.dig ||
            dig_for_spell != o.dig_for_spell || n_sites != o.n_sites || statue_square != o.statue_square ||
            statue_from_phase != o.statue_from_phase)
            return false;
        for (int i = 0; i < n_bribes; ++i)
            if (bribes[i] != o.bribes[i]) return false;
        for (int i = 0; i < n_sites; ++i)
            if (sites[i] != o.sites[i]) return false;
        return true;
    }
};

class State {
   public:
    std::shared_ptr<const Tables> t;
    std::vector<uint8_t> arena;  // the array fields, then the list pool (int16 entries)
    std::vector<int32_t> history;
    Pcg64 rng;
    // -- the turn -----------------------------------------------------------------------------------------
    int phase = 0, current = 0, turn = 0, board_version = 0, next_tile = 0, next_region = 0;
    bool spell_cast = false, bribe_any = false, ignore_rubble = false;
    int workshops_left = 1, active_site = -1, uses_left = 0, free_moves = 0;
    Pending pending;
    int final_turns_left = -1;
    int deck_unseen[3] = {0, 0, 0};
    int spell_unseen = 0;
    int draft_placed[8] = {};
    // -- the memo of the legal decisions (valid until the state changes) ------------------------------------
    std::vector<int32_t> legal;
    bool legal_valid = false;
    //: per seat, an answer about the board of ``version`` (shared by clones: it is never changed in place)
    struct BoardMemo {
        int version = -1;
        std::shared_ptr<const std::vector<int>> value;
    };
    BoardMemo dig_memo[8], hall_memo[8];  // dig geometry, great hall placements

    explicit State(std::shared_ptr<const Tables> tables)
        : t(std::move(tables)), arena(t->arena_bytes + 2 * t->pool_entries, 0) {}

    template <class T>
    T* field(ArrayField f) {
        return reinterpret_cast<T*>(arena.data() + t->array_offsets[f]);
    }
    template <class T>
    const T* field(ArrayField f) const {
        return reinterpret_cast<const T*>(arena.data() + t->array_offsets[f]);
    }
    // the board, per square (sentinel last)
    int8_t* kind() { return field<int8_t>(F_KIND); }
    int16_t* tile() { return field<int16_t>(F_TILE); }
    int16_t* region() { return field<int16_t>(F_REGION); }
    int8_t* hall_at() { return field<int8_t>(F_HALL_AT); }
    int8_t* statue() { return field<int8_t>(F_STATUE); }
    int8_t* pedestal() { return field<int8_t>(F_PEDESTAL); }
    int8_t* buried() { return field<int8_t>(F_BURIED); }
    bool* reach(int p) { return field<bool>(F_REACH) + p * (t->n_squares + 1); }
    int32_t* gate_sq() { return field<int32_t>(F_GATE_SQ); }
    int32_t* hall_altar() { return field<int32_t>(F_HALL_ALTAR); }
    int8_t* workshop() { return field<int8_t>(F_WORKSHOP); }
    // supplies and the horde
    int8_t* workshop_supply() { return field<int8_t>(F_WORKSHOP_SUPPLY); }
    int8_t* tunnel_supply() { return field<int8_t>(F_TUNNEL_SUPPLY); }
    int16_t* supply() { return field<int16_t>(F_SUPPLY); }
    int16_t* horde() { return field<int16_t>(F_HORDE); }
    int8_t* horde_bribes(int h) { return field<int8_t>(F_HORDE_BRIBES) + h * N_RESOURCES; }
    int8_t* horde_pedestal() { return field<int8_t>(F_HORDE_PEDESTAL); }
    int8_t* bag() { return field<int8_t>(F_BAG); }
    int16_t* spellbook() { return field<int16_t>(F_SPELLBOOK); }
    int8_t* spell_runes() { return field<int8_t>(F_SPELL_RUNES); }
    int8_t* track_value(int tier) { return field<int8_t>(F_TRACK_VALUE) + tier * N_CLANS; }
    int8_t* track_taken(int tier) { return field<int8_t>(F_TRACK_TAKEN) + tier * N_CLANS; }
    // the players
    int16_t* coronation() { return field<int16_t>(F_CORONATION); }
    int16_t* storage(int s) { return field<int16_t>(F_STORAGE) + s * N_RESOURCES; }
    int8_t* storage_pedestals(int s) { return field<int8_t>(F_STORAGE_PEDESTALS) + s * N_CLANS; }
    int16_t* smoot(int p) { return field<int16_t>(F_SMOOT) + p * N_SMOOT; }
    int8_t* tokens(int p, int slot) { return field<int8_t>(F_TOKENS) + (p * N_SMOOT + slot) * N_TOKEN_KINDS; }
    int16_t* honour() { return field<int16_t>(F_HONOUR); }
    int16_t* pedestal_points() { return field<int16_t>(F_PEDESTAL_POINTS); }
    int8_t* pedestal_tokens() { return field<int8_t>(F_PEDESTAL_TOKENS); }
    int16_t* storage_of(int p) { return storage(t->storage_of[p]); }

    // -- the list pool ----------------------------------------------------------------------------------
    int16_t* list_base(int l) {
        return reinterpret_cast<int16_t*>(arena.data() + t->arena_bytes) + t->lists[l].offset;
    }
    const int16_t* list_base(int l) const {
        return reinterpret_cast<const int16_t*>(arena.data() + t->arena_bytes) + t->lists[l].offset;
    }
    int list_len(int l) const { return list_base(l)[0]; }
    int16_t* list_data(int l) { return list_base(l) + 1; }
    const int16_t* list_data(int l) const { return list_base(l) + 1; }
    int list_at(int l, int i) const { return list_data(l)[i]; }
    void list_clear(int l) { list_base(l)[0] = 0; }
    void list_push(int l, int v);
    int list_pop_front(int l);
    void list_set(int l, const std::vector<int>& values);
    std::vector<int> list_values(int l) const {
        return std::vector<int>(list_data(l), list_data(l) + list_len(l));
    }

    int n() const { return t->n_players; }
    void changed() { legal_valid = false; }
    //: a write from outside the engine (a field set from Python): every memo goes
    void invalidate() {
        legal_valid = false;
        for (auto& m : dig_memo) m = BoardMemo{};
        for (auto& m : hall_memo) m = BoardMemo{};
    }
};

}  // namespace mk
