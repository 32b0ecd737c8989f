# ruff: noqa: E501  (one hand-written sentence per line)
"""Hand-written material for the English gardening corpus (corpus/gardening-en).

Each concept has a parent (the reference taxonomy, `REFERENCE`), a plural, and
facts written for this project; `compose.py` builds short documents from them.
"""

from __future__ import annotations

TOPIC = "gardening"

# concept: (parent or None, plural, facts). Facts use {x} for the concept's own name.
CONCEPTS: dict[str, tuple[str | None, str, list[str]]] = {
    "vegetable": (
        None,
        "vegetables",
        [
            "A vegetable bed wants at least six hours of direct sun a day.",
            "Rotate your vegetables every year so that soil diseases do not build up in one bed.",
            "Most vegetables are hungry plants and reward a thick layer of compost in spring.",
            "Sow vegetables little and often rather than all at once, and the harvest is spread over the summer.",
            "Raised beds warm up early in spring, which suits vegetables that need a long season.",
        ],
    ),
    "tomato": (
        "vegetable",
        "tomatoes",
        [
            "Tomato seedlings are raised indoors in March and planted out once the nights stay above ten degrees.",
            "Pinch out the side shoots of cordon tomatoes so the plant puts its energy into the trusses.",
            "Water tomatoes at the base, never over the leaves, to keep blight away.",
            "A tomato plant in a grow bag needs feeding with a potash-rich liquid every week once the first fruits set.",
            "Tomatoes ripen faster on the vine when the lower leaves are stripped in late summer.",
            "Blossom end rot on tomatoes comes from irregular watering, not from a lack of fertiliser.",
        ],
    ),
    "cherry tomato": (
        "tomato",
        "cherry tomatoes",
        [
            "A cherry tomato crops heavily in a hanging basket, where the trailing stems can tumble over the edge.",
            "Cherry tomatoes are the sweetest of all tomatoes and children eat them straight from the vine.",
            "Pick cherry tomatoes every other day, or the ripe fruits split after rain.",
            "Cherry tomatoes ripen weeks before the big beefsteak tomatoes, so a few plants give an early taste of summer.",
        ],
    ),
    "potato": (
        "vegetable",
        "potatoes",
        [
            "Seed potatoes are chitted on a cool windowsill until short green sprouts appear.",
            "Earth up potatoes as the shoots grow, drawing soil over the stems so the tubers stay in the dark.",
            "Early potatoes are lifted in June; maincrop potatoes stay in the ground until the haulm dies back.",
            "Green patches on a potato mean it saw the light and should not be eaten.",
            "Potato blight spreads in warm, humid weather; cut the foliage down at the first brown spots.",
        ],
    ),
    "carrot": (
        "vegetable",
        "carrots",
        [
            "Carrot seed is tiny and slow to germinate, so mark the row with a few radishes.",
            "Carrots fork in stony or freshly manured soil; sow them in light, sandy ground.",
            "Carrot fly is drawn by the smell of bruised leaves, so thin carrots in the evening and water afterwards.",
            "A barrier of fine mesh sixty centimetres high keeps carrot fly off the crop.",
        ],
    ),
    "lettuce": (
        "vegetable",
        "lettuces",
        [
            "Lettuce bolts in hot weather, so sow it in light shade during midsummer.",
            "Cut-and-come-again lettuce gives several harvests from a single sowing.",
            "Lettuce seed will not germinate when the soil is warmer than about twenty-five degrees.",
            "Slugs love young lettuce, and a row can vanish in one damp night.",
        ],
    ),
    "herb": (
        None,
        "herbs",
        [
            "Most culinary herbs come from dry, rocky hillsides and hate wet roots.",
            "A pot of herbs by the kitchen door gets used far more than a herb bed at the end of the garden.",
            "Cut herbs in the morning, once the dew has dried, when the aromatic oils are strongest.",
            "Herbs grown in poor soil have more flavour than herbs fed generously.",
        ],
    ),
    "basil": (
        "herb",
        "basil",
        [
            "Basil is tender and sulks in cold nights; keep it on a sunny windowsill until June.",
            "Pinch the tips of basil to stop it flowering and to make the plant bushy.",
            "Water basil in the morning, because wet leaves overnight invite grey mould.",
            "Sweet basil and tomatoes are classic companions in the greenhouse.",
        ],
    ),
    "mint": (
        "herb",
        "mints",
        [
            "Mint spreads by runners and will take over a bed, so grow it in a sunken pot.",
            "Mint tolerates shade and damp soil better than almost any other herb.",
            "Spearmint is the mint for sauces, peppermint the one for tea.",
            "Cut mint back hard in midsummer and it sends up fresh, tender shoots.",
        ],
    ),
    "rosemary": (
        "herb",
        "rosemary",
        [
            "Rosemary is an evergreen shrub from the Mediterranean and needs sharp drainage.",
            "Trim rosemary after flowering but never cut into the old bare wood.",
            "Rosemary cuttings root easily in gritty compost in late summer.",
            "In a cold, wet winter rosemary dies of wet roots more often than of frost.",
        ],
    ),
    "flower": (
        None,
        "flowers",
        [
            "Deadheading faded flowers keeps most plants blooming for weeks longer.",
            "Flowers planted in groups of three or five look more natural than single plants dotted about.",
            "Bees and butterflies visit open, single flowers far more than double ones.",
            "A cutting patch lets you pick flowers for the house without stripping the borders.",
        ],
    ),
    "rose": (
        "flower",
        "roses",
        [
            "Roses are pruned in late winter, cutting each stem just above an outward-facing bud.",
            "A rose planted in the same spot as an old rose often fails, a problem called replant disease.",
            "Black spot on rose leaves spreads in wet weather; collect and bin the fallen leaves.",
            "Feed roses after the first flush of flowers to encourage a second one.",
        ],
    ),
    "climbing rose": (
        "rose",
        "climbing roses",
        [
            "A climbing rose flowers best when its stems are trained horizontally along wires.",
            "Climbing roses are pruned in autumn, shortening the side shoots to a few buds.",
            "A climbing rose over an arch needs its new stems tied in every few weeks in summer.",
        ],
    ),
    "tulip": (
        "flower",
        "tulips",
        [
            "Tulip bulbs are planted late, in November, which helps them avoid tulip fire.",
            "Plant tulips three times as deep as the bulb is tall.",
            "Many tulips flower well only in their first year; treat them as annual bedding.",
            "Squirrels dig up newly planted tulip bulbs, so cover the bed with chicken wire.",
        ],
    ),
    "fruit": (
        None,
        "fruits",
        [
            "Fruit bushes need netting in early summer or the birds take the crop.",
            "Most fruit crops want a sheltered, sunny spot away from late frosts.",
            "Mulch fruit with well-rotted manure in late winter to feed the shallow roots.",
            "Soft fruit is best picked on a dry day and eaten the same afternoon.",
        ],
    ),
    "strawberry": (
        "fruit",
        "strawberries",
        [
            "Strawberry plants send out runners that root into the soil and make new plants.",
            "Tuck straw under strawberries as the fruits swell, to keep them off the wet soil.",
            "Replace strawberry plants every three years, when the crop starts to fall off.",
            "Alpine strawberries fruit all summer and tolerate more shade than the large kinds.",
        ],
    ),
    "apple": (
        "fruit",
        "apples",
        [
            "An apple tree needs a pollination partner that flowers at the same time.",
            "Apples are thinned in June so that the remaining fruits grow to full size.",
            "Prune apple trees in winter while they are dormant, removing crossing branches.",
            "Store apples in a cool shed, each fruit wrapped in paper and not touching its neighbour.",
        ],
    ),
    "pest": (
        None,
        "pests",
        [
            "Encourage birds, frogs and ground beetles and most garden pests are kept in check.",
            "Check the undersides of leaves every week; pests caught early are easy to deal with.",
            "A healthy plant in good soil shrugs off pests that would cripple a stressed one.",
            "Chemical sprays kill the predators along with the pests, so use them as a last resort.",
        ],
    ),
    "aphid": (
        "pest",
        "aphids",
        [
            "Aphids cluster on the soft tips of shoots and suck the sap.",
            "Ladybird larvae eat dozens of aphids a day, so leave them alone.",
            "A strong jet of water knocks aphids off the stems without any spray.",
            "Ants farm aphids for their honeydew and defend them from predators.",
        ],
    ),
    "slug": (
        "pest",
        "slugs",
        [
            "Slugs feed at night, so go out with a torch after rain to see the damage being done.",
            "A beer trap sunk into the soil catches slugs in their dozens.",
            "Copper tape around pots gives slugs a mild shock and turns them back.",
            "Slugs hide under boards and stones by day, which makes them easy to collect.",
        ],
    ),
    "tool": (
        None,
        "tools",
        [
            "Clean and oil your tools before putting them away for the winter.",
            "Good tools last a lifetime if the blades are kept sharp and the handles dry.",
            "Buy fewer tools of better quality; a cheap tool bends at the first heavy job.",
            "Hang tools on the shed wall so you can see at once which one is missing.",
        ],
    ),
    "spade": (
        "tool",
        "spades",
        [
            "A spade with a stainless steel blade slides through heavy clay with less effort.",
            "Choose a spade whose handle reaches your hip, so you dig without bending your back.",
            "Sharpen the edge of the spade with a file and it cuts through roots cleanly.",
        ],
    ),
    "secateurs": (
        "tool",
        "secateurs",
        [
            "Bypass secateurs cut like scissors and leave a clean wound on living stems.",
            "Wipe secateurs with alcohol between plants when cutting out diseased wood.",
            "Anvil secateurs crush soft stems and are best kept for dead wood.",
        ],
    ),
}

# General gardening sentences that go anywhere ({x}: the document's subject, plural).
CARE = [
    "Water {x} deeply once a week rather than a little every day.",
    "A mulch of compost around {x} keeps the soil moist and the weeds down.",
    "In a dry spell, {x} in containers need watering every evening.",
    "Dig plenty of compost into the soil before planting {x}.",
    "Slugs and snails can be a nuisance for young {x} in a wet spring.",
    "Most {x} do best in a sunny, sheltered spot.",
    "Keep {x} free of weeds while they establish.",
    "Label {x} when you plant them; by autumn nobody remembers which is which.",
]

# What CARE says for plants would be odd about pests and tools: their own general lines.
CARE_BY_KIND = {
    "pest": [
        "Look for {x} on warm, damp evenings, when most of them are about.",
        "A few {x} do little harm; it is a sudden plague that needs action.",
        "Birds and frogs eat {x}, so a pond does more than any spray.",
    ],
    "tool": [
        "Keep {x} out of the rain and they will outlast you.",
        "Good {x} are worth the money; cheap ones bend or blunt in a season.",
        "Wipe {x} clean after use and oil any bare metal.",
    ],
}

GENERAL = {
    "soil": [
        "Clay soil holds water and nutrients but is heavy to dig and slow to warm in spring.",
        "Sandy soil drains quickly and warms early, but it needs regular compost to hold moisture.",
        "A soil test kit tells you whether your soil is acid or alkaline in a few minutes.",
        "Never dig soil when it is wet enough to stick to your boots; you will ruin its structure.",
        "Worms are the best sign of a healthy soil.",
    ],
    "compost": [
        "A compost heap needs a mix of green material, such as grass cuttings, and brown material, such as cardboard.",
        "Turn the compost heap every few weeks to let air in and speed things up.",
        "Compost is ready when it is dark, crumbly and smells of a forest floor.",
        "Leave perennial weeds and diseased plants out of the compost heap.",
        "Leaf mould is slow compost made from nothing but autumn leaves.",
    ],
    "watering": [
        "A water butt on the shed collects hundreds of litres of rainwater a year.",
        "Water in the evening or early morning so less is lost to evaporation.",
        "A soaker hose laid under mulch puts water where the roots are.",
        "Plants in pots dry out far faster than plants in the ground.",
    ],
    "greenhouse": [
        "A greenhouse extends the growing season by several weeks at both ends.",
        "Open the greenhouse vents on sunny mornings, even in spring, or the plants cook.",
        "Whitewash on the greenhouse glass gives shade in high summer.",
        "Wash the greenhouse glass in autumn to let in every bit of winter light.",
    ],
}
