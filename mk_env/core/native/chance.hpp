// The suite's chance, compiled: numpy's PCG64 bit generator, its SeedSequence seeding, and the draws the
// Python engines make (``Generator.integers(n)`` and ``Generator.permutation(n)``), bit for bit, so that a
// seed, a saved generator state or a determinization means the same game in both backends.
//
// The algorithms are numpy's (numpy/random/src/pcg64, distributions.c's bounded Lemire and masked interval,
// bit_generator.pyx's SeedSequence); tests/native/test_native_chance.py checks them against numpy itself.
#pragma once

#include <cstdint>
#include <vector>

namespace mk {

using u128 = unsigned __int128;

//: numpy's ``bitgen_t`` (numpy/random/bitgen.h): what a Python ``BitGenerator``'s capsule holds
struct BitgenT {
    void* state;
    uint64_t (*next_uint64)(void* st);
    uint32_t (*next_uint32)(void* st);
    double (*next_double)(void* st);
    uint64_t (*next_raw)(void* st);
};

//: numpy's PCG64: a 128-bit LCG with the XSL-RR output, and its buffered 32-bit half
struct Pcg64 {
    u128 state = 0;
    u128 inc = 1;
    int has_uint32 = 0;
    uint32_t uinteger = 0;

    static constexpr u128 multiplier() {
        return (static_cast<u128>(2549297995355413924ULL) << 64) | 4865540595714422341ULL;
    }
    uint64_t next64() {
        state = state * multiplier() + inc;
        const uint64_t x = static_cast<uint64_t>(state >> 64) ^ static_cast<uint64_t>(state);
        const unsigned rot = static_cast<unsigned>(state >> 122);
        return (x >> rot) | (x << ((64u - rot) & 63u));
    }
    uint32_t next32() {
        if (has_uint32) {
            has_uint32 = 0;
            return uinteger;
        }
        const uint64_t next = next64();
        has_uint32 = 1;
        uinteger = static_cast<uint32_t>(next >> 32);
        return static_cast<uint32_t>(next & 0xffffffffULL);
    }
    //: ``np.random.PCG64(seed)`` for a non-negative integer seed of at most 128 bits (SeedSequence)
    static Pcg64 from_seed(const std::vector<uint32_t>& entropy_words);
};

//: a Python generator's bit generator, drawn through its own functions (it advances as numpy's would)
struct PyBitgen {
    BitgenT* bg;
    uint64_t next64() { return bg->next_uint64(bg->state); }
    uint32_t next32() { return bg->next_uint32(bg->state); }
};

//: ``Generator.integers(high)`` (int64, ``0 <= x < high``, ``high >= 1``): numpy's bounded Lemire draws
template <class Source>
int64_t integers(Source& src, uint64_t high) {
    const uint64_t rng = high - 1;
    if (rng == 0) return 0;
    if (rng <= 0xFFFFFFFFULL) {
        if (rng == 0xFFFFFFFFULL) return src.next32();
        const uint32_t rng_excl = static_cast<uint32_t>(rng) + 1;
        uint64_t m = static_cast<uint64_t>(src.next32()) * rng_excl;
        uint32_t leftover = static_cast<uint32_t>(m & 0xFFFFFFFFULL);
        if (leftover < rng_excl) {
            const uint32_t threshold = static_cast<uint32_t>((UINT32_MAX - static_cast<uint32_t>(rng)) % rng_excl);
            while (leftover < threshold) {
                m = static_cast<uint64_t>(src.next32()) * rng_excl;
                leftover = static_cast<uint32_t>(m & 0xFFFFFFFFULL);
            }
        }
        return static_cast<int64_t>(m >> 32);
    }
    if (rng == 0xFFFFFFFFFFFFFFFFULL) return static_cast<int64_t>(src.next64());
    const uint64_t rng_excl = rng + 1;
    u128 m = static_cast<u128>(src.next64()) * rng_excl;
    uint64_t leftover = static_cast<uint64_t>(m);
    if (leftover < rng_excl) {
        const uint64_t threshold = (UINT64_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = static_cast<u128>(src.next64()) * rng_excl;
            leftover = static_cast<uint64_t>(m);
        }
    }
    return static_cast<int64_t>(m >> 64);
}

//: numpy's ``random_interval``: uniform in ``0..max`` by masked rejection (what ``shuffle`` draws)
template <class Source>
uint64_t interval(Source& src, uint64_t max) {
    if (max == 0) return 0;
    uint64_t mask = max;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    uint64_t value;
    if (max <= 0xffffffffULL) {
        while ((value = (src.next32() & mask)) > max) {
        }
    } else {
        while ((value = (src.next64() & mask)) > max) {
        }
    }
    return value;
}

//: ``Generator.permutation(n)``: ``arange(n)`` shuffled in place, the last position first
template <class Source>
std::vector<int> permutation(Source& src, int n) {
    std::vector<int> out(n);
    for (int i = 0; i < n; ++i) out[i] = i;
    for (int i = n - 1; i >= 1; --i) {
        const int j = static_cast<int>(interval(src, static_cast<uint64_t>(i)));
        std::swap(out[i], out[j]);
    }
    return out;
}

inline Pcg64 Pcg64::from_seed(const std::vector<uint32_t>& entropy_words) {
    // SeedSequence(entropy).generate_state(4, uint64), pool size 4, no spawn key
    constexpr uint32_t INIT_A = 0x43b0d7e5, MULT_A = 0x931e8875, INIT_B = 0x8b51f9dd, MULT_B = 0x58f38ded;
    constexpr uint32_t MIX_MULT_L = 0xca01f9dd, MIX_MULT_R = 0x4973f715;
    constexpr int POOL = 4;
    uint32_t hash_const = INIT_A;
    auto hashmix = [&hash_const](uint32_t value) {
        value ^= hash_const;
        hash_const *= MULT_A;
        value *= hash_const;
        value ^= value >> 16;
        return value;
    };
    auto mix = [](uint32_t x, uint32_t y) {
        uint32_t result = MIX_MULT_L * x - MIX_MULT_R * y;
        result ^= result >> 16;
        return result;
    };
    uint32_t pool[POOL];
    const int n = static_cast<int>(entropy_words.size());
    for (int i = 0; i < POOL; ++i) pool[i] = hashmix(i < n ? entropy_words[i] : 0u);
    for (int src = 0; src < POOL; ++src)
        for (int dst = 0; dst < POOL; ++dst)
            if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    for (int src = POOL; src < n; ++src)
        for (int dst = 0; dst < POOL; ++dst) pool[dst] = mix(pool[dst], hashmix(entropy_words[src]));
    uint32_t words[8];
    uint32_t hb = INIT_B;
    for (int i = 0; i < 8; ++i) {
        uint32_t v = pool[i % POOL];
        v ^= hb;
        hb *= MULT_B;
        v *= hb;
        v ^= v >> 16;
        words[i] = v;
    }
    uint64_t w[4];
    for (int i = 0; i < 4; ++i) w[i] = static_cast<uint64_t>(words[2 * i]) | (static_cast<uint64_t>(words[2 * i + 1]) << 32);
    const u128 initstate = (static_cast<u128>(w[0]) << 64) | w[1];
    const u128 initseq = (static_cast<u128>(w[2]) << 64) | w[3];
    Pcg64 g;
    g.state = 0;
    g.inc = (initseq << 1u) | 1u;
    g.next64();
    g.state += initstate;
    g.next64();
    g.has_uint32 = 0;
    g.uinteger = 0;
    return g;
}

//: the 32-bit words of a non-negative integer, least significant first (numpy's ``_coerce_to_uint32_array``)
inline std::vector<uint32_t> seed_words(uint64_t seed) {
    std::vector<uint32_t> out;
    if (seed == 0) return {0u};
    while (seed) {
        out.push_back(static_cast<uint32_t>(seed & 0xffffffffULL));
        seed >>= 32;
    }
    return out;
}

}  // namespace mk
