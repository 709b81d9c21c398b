from coach.steps import STEP_IDS, field_for, label_for, next_step, step_for_field


def test_it_orders_the_seven_steps_as_the_contract_names_them() -> None:
    assert STEP_IDS == (
        "claim",
        "grounds",
        "warrant",
        "groundsBacking",
        "warrantBacking",
        "qualifier",
        "rebuttal",
    )


def test_it_maps_step_ids_to_model_fields_and_back() -> None:
    assert field_for("groundsBacking") == "grounds_backing"
    assert field_for("warrantBacking") == "warrant_backing"
    for step in STEP_IDS:
        assert step_for_field(field_for(step)) == step


def test_it_gives_the_step_after_each_and_none_after_the_rebuttal() -> None:
    chain = ["claim"]
    while (following := next_step(chain[-1])) is not None:
        chain.append(following)
    assert tuple(chain) == STEP_IDS


def test_it_names_steps_in_the_arguments_language() -> None:
    assert label_for("rebuttal", "en") == "Rebuttal"
    assert label_for("rebuttal", "es") == "Refutación"
