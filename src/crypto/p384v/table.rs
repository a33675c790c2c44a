//! The odd multiples G, 3G, …, 15G of the P-384 base point, affine: the table of the
//! width-5 NAF of u1 in u1·G + u2·Q, fixed at compile time (no table to build at start or on
//! first use). Computed with exact integer arithmetic from SEC 2's G; the test
//! `base_table_is_the_odd_multiples_of_g` recomputes every entry.

use super::field::Fe;
use super::point::Affine;

/// `(2k + 1)·G` at index k.
pub(super) const G_ODD_MULTIPLES: [Affine; 8] = [
    point(
        "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
        "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
    ),
    point(
        "077a41d4606ffa1464793c7e5fdc7d98cb9d3910202dcd06bea4f240d3566da6b408bbae5026580d02d7e5c70500c831",
        "c995f7ca0b0c42837d0bbe9602a9fc998520b41c85115aa5f7684c0edc111eacc24abd6be4b5d298b65f28600a2f1df1",
    ),
    point(
        "11de24a2c251c777573cac5ea025e467f208e51dbff98fc54f6661cbe56583b037882f4a1ca297e60abcdbc3836d84bc",
        "8fa696c77440f92d0f5837e90a00e7c5284b447754d5dee88c986533b6901aeb3177686d0ae8fb33184414abe6c1713a",
    ),
    point(
        "283c1d7365ce4788f29f8ebf234edffead6fe997fbea5ffa2d58cc9dfa7b1c508b05526f55b9ebb2040f05b48fb6d0e1",
        "9475c99061e41b88ba52efdb8c1690471a61d867ed799729d9c92cd01dbd225630d84ede32a78f9e64664cdac512ef8c",
    ),
    point(
        "8f0a39a4049bcb3ef1bf29b8b025b78f2216f7291e6fd3bac6cb1ee285fb6e21c388528bfee2b9535c55e4461079118b",
        "62c77e1438b601d6452c4a5322c3a9799a9b3d7ca3c400c6b7678854aed9b3029e743efedfd51b68262da4f9ac664af8",
    ),
    point(
        "099056e27da7b998da1eeec2904816c57fe935ed5837c37456c9fd14892d3f8c4749b66e3afb81d626356f3b55b4ddd8",
        "2e4c0c234e30ab96688505544ac5e0396fc4eed8dfc363fd43ff93f41b52a3255466d51263aaff357d5dba8138c5e0bb",
    ),
    point(
        "a567ba97b67aea5bafdaf5002ffcc6ab9632bff9f01f873f6267bcd1f0f11c139ee5f441abd99f1baaf1ca1e3b5cbce7",
        "de1b38b3989f3318644e4147af164ecc5185595046932ec086329be057857d66776bcb8272218a7d6423a12736f429cc",
    ),
    point(
        "b3d13fc8b32b01058cc15c11d813525522a94156fff01c205b21f9f7da7c4e9ca849557a10b6383b4b88701a9606860b",
        "152919e7df9162a61b049b2536164b1beebac4a11d749af484d1114373dfbfd9838d24f8b284af50985d588d33f7bd62",
    ),
];

const fn point(x: &str, y: &str) -> Affine {
    Affine {
        x: Fe(limbs_of_hex(x)),
        y: Fe(limbs_of_hex(y)),
    }
}

/// 96 hex digits (big-endian) as limbs, least significant first; at compile time (a bad
/// digit fails the build, never a run).
#[allow(clippy::panic)]
pub(super) const fn limbs_of_hex(hex: &str) -> [u32; 12] {
    let hex = hex.as_bytes();
    let mut limbs = [0u32; 12];
    let mut i = 0;
    while i < 96 {
        let c = hex[i];
        let digit = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => panic!("not a hex digit"),
        };
        let bit = (95 - i) * 4;
        limbs[bit / 32] |= (digit as u32) << (bit % 32);
        i += 1;
    }
    limbs
}
