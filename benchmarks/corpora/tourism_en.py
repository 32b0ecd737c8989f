# ruff: noqa: E501  (one hand-written sentence per line)
"""Hand-written material for the English tourism corpus (corpus/tourism-en).

Same shape as gardening.py: concept → (parent, plural, facts), then general
travel sentences. Written for this project.
"""

from __future__ import annotations

TOPIC = "tourism"

CONCEPTS: dict[str, tuple[str | None, str, list[str]]] = {
    "attraction": (
        None,
        "attractions",
        [
            "The big attractions open at nine; arrive at opening time and you beat the tour coaches.",
            "A city pass covers entry to most attractions and the public transport between them.",
            "Many attractions close one day a week, usually Monday, so check before you set out.",
            "Book timed tickets online for the popular attractions in high season.",
        ],
    ),
    "museum": (
        "attraction",
        "museums",
        [
            "The museum's free audio guide is worth the deposit; it tells the story behind each gallery.",
            "National museums are free on the first Sunday of the month, and the queues show it.",
            "Leave large bags in the museum cloakroom; they are not allowed in the galleries.",
            "A small local museum often tells you more about a town than the famous collections.",
            "Photography without flash is allowed in most rooms of the museum.",
        ],
    ),
    "art gallery": (
        "museum",
        "art galleries",
        [
            "The art gallery's late opening on Thursdays is the calmest time to see the paintings.",
            "Most art galleries rotate their exhibitions, so the painting you came for may be on loan.",
            "Sketching in pencil is welcome in the art gallery; pens and easels are not.",
        ],
    ),
    "beach": (
        "attraction",
        "beaches",
        [
            "A red flag on the beach means bathing is forbidden; a yellow flag means take care.",
            "The quieter beaches lie at the end of the coastal path, an hour's walk from the town.",
            "Lifeguards patrol the main beach from June to September.",
            "Beach huts can be rented by the day and come with a kettle and deckchairs.",
        ],
    ),
    "national park": (
        "attraction",
        "national parks",
        [
            "The national park visitor centre sells trail maps and reports on path closures.",
            "Wild camping is not allowed in most national parks without a permit.",
            "Rangers lead free guided walks in the national park during the summer holidays.",
            "Stay on the marked trails; the moorland in the national park is fragile.",
        ],
    ),
    "castle": (
        "attraction",
        "castles",
        [
            "The castle keep is reached by a steep spiral staircase with no lift.",
            "Costumed guides tell the story of the siege in the castle courtyard.",
            "From the castle walls you can see three counties on a clear day.",
            "The castle ruins are free to visit, but the exhibition in the gatehouse charges entry.",
        ],
    ),
    "accommodation": (
        None,
        "accommodation",
        [
            "Accommodation near the station is cheaper than in the old town and only ten minutes away.",
            "Book accommodation early for festival weekends; prices double in the last month.",
            "Read the cancellation terms before paying for accommodation in advance.",
            "Local tourist offices keep lists of accommodation with rooms still free.",
        ],
    ),
    "hotel": (
        "accommodation",
        "hotels",
        [
            "Hotel check-in starts at three, but most hotels will keep your luggage from the morning.",
            "A hotel room facing the courtyard is quieter than one over the street.",
            "Breakfast is rarely included in city hotels; the café next door is often better value.",
            "Ask the hotel reception for a map; they know which restaurants the locals use.",
            "Hotel prices drop sharply on Sunday nights in business districts.",
        ],
    ),
    "boutique hotel": (
        "hotel",
        "boutique hotels",
        [
            "A boutique hotel has a handful of rooms, each decorated differently.",
            "Boutique hotels in old merchants' houses often have no lift and steep stairs.",
            "The owners of a boutique hotel usually run the place themselves and know every guest by name.",
        ],
    ),
    "hostel": (
        "accommodation",
        "hostels",
        [
            "Hostel dormitories sleep four to twelve people; private rooms cost more but book out first.",
            "Bring a padlock for the hostel lockers.",
            "Most hostels have a shared kitchen, which saves a lot of money on a long trip.",
            "The hostel common room is the best place to find people to share a taxi or a day trip.",
        ],
    ),
    "campsite": (
        "accommodation",
        "campsites",
        [
            "Campsite pitches with electric hook-up must be booked weeks ahead in August.",
            "The campsite shop sells gas canisters, fresh bread in the morning and little else.",
            "Quiet hours on the campsite start at ten at night.",
            "A campsite by the river is lovely until the midges come out at dusk.",
        ],
    ),
    "transport": (
        None,
        "transport",
        [
            "Public transport in the city runs on one ticket for buses, trams and the metro.",
            "Buy a transport card at the airport; single fares cost twice as much.",
            "Transport strikes are announced a few days ahead, so watch the local news.",
            "Night transport is limited to a few bus routes after midnight.",
        ],
    ),
    "train": (
        "transport",
        "trains",
        [
            "Train tickets bought weeks in advance cost a fraction of the fare on the day.",
            "Reserve a seat on long-distance trains in summer; standing for four hours is no fun.",
            "The train station has left-luggage lockers beside platform one.",
            "Validate regional train tickets in the machines on the platform before boarding.",
            "Sleeper trains save a night of accommodation and arrive in the city centre.",
        ],
    ),
    "high-speed train": (
        "train",
        "high-speed trains",
        [
            "The high-speed train covers the distance in under three hours, city centre to city centre.",
            "High-speed trains require a reservation even for holders of a rail pass.",
            "Boarding for the high-speed train closes two minutes before departure.",
        ],
    ),
    "bus": (
        "transport",
        "buses",
        [
            "Long-distance buses are the cheapest way between cities, with free wifi on most routes.",
            "Buy bus tickets from the driver with exact change; notes are not accepted.",
            "The airport bus leaves every twenty minutes from the stop outside arrivals.",
            "Rural buses run only a few times a day, so note the last bus back.",
        ],
    ),
    "ferry": (
        "transport",
        "ferries",
        [
            "The ferry to the islands sails twice a day in winter and hourly in summer.",
            "Cars must be at the ferry terminal forty-five minutes before sailing.",
            "Foot passengers can buy ferry tickets at the harbour kiosk on the day.",
            "Dolphins often follow the ferry across the bay.",
        ],
    ),
    "tour": (
        None,
        "tours",
        [
            "Tours that start early in the morning reach the sights before the crowds.",
            "Most tours include hotel pick-up in the old town.",
            "Read the reviews before booking a tour; the cheapest often stop at souvenir shops.",
            "Private tours cost more but go at your own pace.",
        ],
    ),
    "walking tour": (
        "tour",
        "walking tours",
        [
            "Free walking tours run on tips; give what the two hours were worth to you.",
            "The walking tour of the old town lasts about two hours and ends at the cathedral.",
            "Wear comfortable shoes for the walking tour; the streets are cobbled.",
            "Evening walking tours tell the darker stories of the city.",
        ],
    ),
    "boat tour": (
        "tour",
        "boat tours",
        [
            "The boat tour of the canals lasts an hour and leaves from the central pier.",
            "Boat tours to the seal colony are cancelled in rough weather.",
            "Take a jacket on the boat tour; it is windy on the open water even in summer.",
        ],
    ),
}

CARE = [
    "Check opening times for {x} before you travel; they change between seasons.",
    "In high season, {x} fill up quickly, so book a few weeks ahead.",
    "Prices for {x} are lower outside the school holidays.",
    "The tourist office in the main square has leaflets on {x} in several languages.",
    "Reviews of {x} by other travellers are a better guide than the brochures.",
    "Most {x} accept cards, but carry some cash for small places.",
]

GENERAL = {
    "planning": [
        "Plan your itinerary around one or two sights a day rather than ten.",
        "Travel insurance should cover cancellation as well as medical costs.",
        "Check whether you need a visa well before you book flights.",
        "Shoulder season, in May or September, brings lower prices and fewer crowds.",
    ],
    "money": [
        "Tell your bank before you travel so your card is not blocked abroad.",
        "Tipping customs differ; ten percent is usual in restaurants in most of Europe.",
        "Tourist taxes are charged per night at most accommodation and paid on arrival.",
        "Airport exchange desks give the worst rates; withdraw cash from a bank machine in town.",
    ],
    "luggage": [
        "Pack light: a small suitcase is easier on cobbled streets and train steps.",
        "Keep medicines and a change of clothes in your hand luggage.",
        "Weigh your suitcase before you leave; airlines charge heavily for excess baggage.",
        "Label your luggage inside and out.",
    ],
}
