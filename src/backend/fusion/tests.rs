//! Known answers of the fusion methods and of a child's cut.
use super::*;

fn list(ids: &[(&str, f32)]) -> Ranked {
    Ranked {
        hits: ids.iter().map(|(i, s)| (i.to_string(), Some(*s))).collect(),
    }
}

fn order(ids: &[&str]) -> HashMap<String, usize> {
    ids.iter()
        .enumerate()
        .map(|(i, id)| (id.to_string(), i))
        .collect()
}

#[test]
fn rrf_known_answer() {
    // a: ranks 1 and 3 → 1/61 + 1/63; b: 2 and 1 → 1/62 + 1/61; c: 3 → 1/63; d: 2 → 1/62.
    let lists = [
        list(&[("a", 9.0), ("b", 5.0), ("c", 1.0)]),
        list(&[("b", 0.9), ("d", 0.8), ("a", 0.7)]),
    ];
    let fused = fuse(
        &Method::Rrf { k: 60.0 },
        &lists,
        &order(&["a", "b", "c", "d"]),
    );
    let got: Vec<(&str, f64)> = fused.iter().map(|f| (f.id.as_str(), f.score)).collect();
    let want = [
        ("b", 1.0 / 62.0 + 1.0 / 61.0),
        ("a", 1.0 / 61.0 + 1.0 / 63.0),
        ("d", 1.0 / 62.0),
        ("c", 1.0 / 63.0),
    ];
    for ((id, s), (wid, ws)) in got.iter().zip(want) {
        assert_eq!(*id, wid);
        assert!((s - ws).abs() < 1e-15);
    }
    assert_eq!(
        fused[0].parts,
        vec![Some((2, Some(5.0))), Some((1, Some(0.9)))]
    );
}

#[test]
fn combsum_known_answer_with_weights_and_ties_in_corpus_order() {
    // Child 1 normalises 10, 6, 2 to 1, 0.5, 0; child 2 (weight 2) 0.8, 0.4 to 1, 0.
    let lists = [
        list(&[("x", 10.0), ("y", 6.0), ("z", 2.0)]),
        list(&[("z", 0.8), ("y", 0.4)]),
    ];
    let fused = fuse(
        &Method::CombSum {
            weights: vec![1.0, 2.0],
        },
        &lists,
        &order(&["y", "x", "z"]),
    );
    let got: Vec<(&str, f64)> = fused.iter().map(|f| (f.id.as_str(), f.score)).collect();
    assert_eq!(got, [("z", 2.0), ("x", 1.0), ("y", 0.5)]);
    // Equal scores: corpus order decides (y before x here).
    let even = [list(&[("x", 1.0)]), list(&[("y", 1.0)])];
    let fused = fuse(
        &Method::CombSum { weights: vec![] },
        &even,
        &order(&["y", "x"]),
    );
    assert_eq!(
        fused.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
        ["y", "x"]
    );
}

#[test]
fn fallback_takes_the_first_list_that_is_not_empty() {
    let lists = [list(&[]), list(&[("c", 0.7), ("d", 0.6)])];
    let fused = fuse(&Method::Fallback, &lists, &order(&["c", "d"]));
    assert_eq!(
        fused.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
        ["c", "d"]
    );
    assert_eq!(fused[0].parts, vec![None, Some((1, Some(0.7)))]);
    let first = [list(&[("a", 5.0)]), list(&[("c", 0.7)])];
    assert_eq!(fuse(&Method::Fallback, &first, &order(&[]))[0].id, "a");
}

#[test]
fn a_child_is_cut_to_its_depth_and_floor() {
    let hit = |id: &str, score: Option<f32>| Hit {
        id: id.into(),
        score,
        explanation: None,
    };
    let hits = || {
        vec![
            hit("a", Some(0.9)),
            hit("b", Some(0.7)),
            hit("c", None),
            hit("d", Some(0.65)),
            hit("e", Some(0.5)),
        ]
    };
    let ids = |r: Ranked| r.hits.into_iter().map(|h| h.0).collect::<Vec<_>>();
    assert_eq!(ids(cut(hits(), None, None)), ["a", "b", "c", "d", "e"]);
    assert_eq!(ids(cut(hits(), Some(2), None)), ["a", "b"]);
    // The floor first, then the depth: d is the third hit at or above 0.6.
    assert_eq!(ids(cut(hits(), None, Some(0.6))), ["a", "b", "d"]);
    assert_eq!(ids(cut(hits(), Some(1), Some(0.6))), ["a"]);
    assert!(cut(hits(), None, Some(0.95)).hits.is_empty());
}

#[test]
fn a_cut_and_an_uncut_search_depth_are_named_apart() {
    let tag = |depth: usize, child_depths: Vec<usize>| {
        let config = FusionConfig {
            method: Method::Rrf { k: 60.0 },
            children: Vec::new(),
            depth,
            child_depths,
            floors: Vec::new(),
        };
        label::tag(&config.label_settings(), [])
    };
    assert_eq!(tag(100, vec![]), None);
    assert_eq!(tag(50, vec![]).as_deref(), Some("reach50"));
    assert_eq!(tag(50, vec![50, 50]).as_deref(), Some("depth50"));
    assert_eq!(tag(100, vec![100, 3]).as_deref(), Some("depth100,3"));
}
