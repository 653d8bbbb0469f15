//! Session files: a mutation or a turn that cannot be is an error naming its turn.

use super::*;

#[test]
fn session_unknown_turn_label() {
    session_error(
        |s| s[0]["turns"][2]["label"] = json!("digression"),
        &[
            "$[0].turns[2].label",
            "unknown variant `digression`",
            "establishes_topic",
        ],
    );
}

#[test]
fn session_turn_indexes_must_increase() {
    session_error(
        |s| s[0]["turns"][5]["turnIndex"] = json!(3),
        &[
            "$[0].turns[5].turnIndex",
            "turnIndex 3 after 4",
            "strictly increasing",
        ],
    );
}

#[test]
fn session_update_of_a_belief_that_does_not_exist() {
    session_error(
        |s| s[0]["turns"][9]["updateBeliefAtTurn"]["beliefId"] = json!("b-redis-cache"),
        &[
            "$[0].turns[9].updateBeliefAtTurn.beliefId",
            "\"b-redis-cache\" does not exist",
        ],
    );
}

#[test]
fn session_create_of_an_existing_belief() {
    session_error(
        |s| s[0]["turns"][4]["createBeliefAtTurn"]["_id"] = json!("b-redis-code"),
        &[
            "$[0].turns[4].createBeliefAtTurn._id",
            "\"b-redis-code\" already exists",
        ],
    );
}

#[test]
fn session_update_before_the_create_it_needs() {
    // Turn 4 creates b-ci-parallel-decision; updating it at turn 2 is an error.
    session_error(
        |s| {
            s[0]["turns"][2]["updateBeliefAtTurn"] =
                json!({"beliefId": "b-ci-parallel-decision", "addAliases": ["x"]});
        },
        &[
            "$[0].turns[2].updateBeliefAtTurn.beliefId",
            "\"b-ci-parallel-decision\" does not exist at this point",
        ],
    );
}

#[test]
fn session_noise_check_naming_an_unknown_belief() {
    session_error(
        |s| s[1]["turns"][0]["expect"]["noiseCheck"]["mustNotSurface"] = json!(["b-nope"]),
        &[
            "$[1].turns[0].expect.noiseCheck.mustNotSurface[0]",
            "\"b-nope\" is not in the corpus",
        ],
    );
}
