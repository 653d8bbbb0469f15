//! The Temporal Memory Dataset's released files (Zyphra/TemporalMemoryDataset 2471511) by
//! sha256, and which of a run's inputs are not they, or are missing from it.

use crate::suite::InputFile;

/// The sha256 of the released files (Zyphra/TemporalMemoryDataset 24715112), by path: hashes
/// only, the files are the user's to download.
const RELEASED: &str = "\
ff1d447914444c59231c0c3d384e38ab41b08d3170a6b4a7656da2bbf6124cb3  ConversationData/26.json\n\
1305f67ae0da9aef151c57c3ec5265b11c1b6582757a10ebeab07dedec0e6063  ConversationData/28.json\n\
b810c898815e6df491479ea056dca894bd1dbd590a1fbccd6d8bb44d0bacc9f6  ConversationData/31.json\n\
57ea4a7f0621b05cab2773719c09e9416891911c14838320f90f21309caad7d8  ConversationData/41.json\n\
bfa9dd693c0fccebfe3da8a293f2e7edf83176811728709e1ae1d1898709041c  ConversationData/42.json\n\
7c1c90d35cc290b924693a03ef27f35c8fa8a976bcd6c826b61e8de831da56b8  ConversationData/43.json\n\
bf9aa90c78c112a8ee20dc808297f790dd215e0656d7980cda0ad75c479ad9c2  ConversationData/44.json\n\
a7bbefb14a7b8d8f24b7b9581acbc0e572c45f3ea850453ee3408bb49705e2e0  ConversationData/45.json\n\
05811d49b39df7d738565029dc1c38157ee8207336d2b34e0c1b186316c344d1  ConversationData/46.json\n\
99954684c3d73d84505158ffbdda07af4301526210ef09695d9f38541c5d5c17  ConversationData/47.json\n\
4a58d53778a34a89e835d6acbfc313856ade2856f0b989c3ce3eab3727d7ffe0  ConversationData/48.json\n\
3da7b2aa7434b9354d745bd3d4b3f2a9b6c63acb746f2255913433c7570fcae6  ConversationData/49.json\n\
f40b7c65664a820ebf567f095a9e08d5163a2077d17f3538350cfae2d6c21ee3  TestData/ambiguous_time_qs/test_date_span.json\n\
d58b5a3d61404d8ee2c180c39f8ec9f04afb8b42a5a918dc19b84c33dea0fd2a  TestData/ambiguous_time_qs/test_dates.json\n\
b9cc5b0d9633c1e1338c966d7aec8d8a9ce36567447167ffd038145265044962  TestData/ambiguous_time_qs/test_day_span.json\n\
a94d89e0ca4898190962bd6ab0cf306922b7b35d68403af68e86cf2a8a83523a  TestData/ambiguous_time_qs/test_earlier_today.json\n\
65bc84e2ac3d115eff099ff8e656936ca7abedd7198e32257c1b909efc6febdf  TestData/ambiguous_time_qs/test_last_named_day.json\n\
62aa3dffc7456ad83c6a02d78faed181da8aee3d1ebfb60f6b57af859fb8d8fa  TestData/ambiguous_time_qs/test_month.json\n\
978bc86c4ad2f6e5283ca6430431d39ecc5982264d4a08df22f9517f67081ea0  TestData/ambiguous_time_qs/test_rel_day.json\n\
c080f505976839f478c9f574025c08cbdcb23f773f54e22b2725200d929d2e19  TestData/ambiguous_time_qs/test_rel_month.json\n\
3bd35d4954a8907563be9c348bab42afc0e5876c2f42a674f2549cc2d6c9db88  TestData/ambiguous_time_qs/test_rel_session.json\n\
9b61538c28aae88869efad3470a07f0c6b0cd8e2ad0c44328777cd402d36c91d  TestData/ambiguous_time_qs/test_session.json\n\
891ce846fa61a0bb683ec4ac3537e5c411a620c3d7da77fa0fd2220713db5561  TestData/ambiguous_time_qs/test_session_span.json\n\
e9a848515c93132c2b59aaa96a8dbb89a706c2336fa1aceca8d6ab95ef51ca99  TestData/content_time_qs/content_time_qs.json\n\
d169233c8b10592a2cf7dc317369c0df8961d6813c7ea8dc28164229eb0bce6a  TestData/time_qs/test_date_span.json\n\
1338690b47b6020896ee1fe33d9c90d7caa4dc077f41535c521f34144950f41e  TestData/time_qs/test_dates.json\n\
78a9162bc0f6ab703c8bdebd779da9bb37fac1eb50cae07535b176665032570b  TestData/time_qs/test_day_span.json\n\
caf67340e86abbf9a9dd7143c9313e0401d9c5a5545a693f2f46ee04b3bce9de  TestData/time_qs/test_earlier_today.json\n\
37acb0684ddd9fce498c66b4a7070aa7f520fc63ee6923cd8d1c86d54a076c5b  TestData/time_qs/test_last_named_day.json\n\
4d3c3d39505967b9926fd0a302458ced49b8d8e312c5c4ca4256eb8c75353752  TestData/time_qs/test_month.json\n\
c9490c6549f439108fe1b4e244b455d0fa0dab57835e4e62c6c136bc8b89a360  TestData/time_qs/test_rel_day.json\n\
a2670f348367610d4f6714c2cfdb634c4d8351ec372b6ebf723a183006821d09  TestData/time_qs/test_rel_month.json\n\
181c425561a78c8eb3a71dd248944c63b3018019bc6bfb51db3336b3cbb35cf3  TestData/time_qs/test_rel_session.json\n\
4dc841907498dc4291539714616993c8eee09577e58ffc429c84762ab65b890f  TestData/time_qs/test_session.json\n\
44a9b40137752ca98a83682653503f300308306a45bddbb020f3039143f129c7  TestData/time_qs/test_session_span.json\n\
";

/// The paths of `inputs` that are not the released file of that path.
pub(super) fn unreleased(inputs: &[InputFile]) -> Vec<String> {
    crate::suite::benchmark::unreleased(RELEASED, inputs)
}

/// The released files a run did not read, in release order: a test folder or file taken out
/// left its questions out, and the run was the release still (a tenth audit).
pub(super) fn absent(inputs: &[InputFile]) -> Vec<String> {
    crate::suite::benchmark::absent(RELEASED, inputs, |_| true)
}
