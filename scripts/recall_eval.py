#!/usr/bin/env python3
"""Builds the recall evaluation set: two long synthetic conversations (Spanish and
English, ~290 days each) of everyday chat, with planted statements and questions whose
evidence is known. Question kinds: `words` (the question shares the statement's words),
`paraphrase` (it does not), `multihop` (the answer needs two statements far apart) and
`temporal` (about when, or about a stretch of time). The filler repeats the questions'
ordinary words (sister, job, new, trabajo, hermana...) so matching words is not enough,
and forty distractors a language (things said once, many near a question's topic) make
sure that being said once is no giveaway either.

Deterministic (seeded). Writes benches/data/recall_eval.json; `cargo bench --bench
recall_eval` reads it.

Run: python3 scripts/recall_eval.py
"""
import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

NOW = datetime(2026, 11, 20, 20, 0, tzinfo=timezone.utc)
START = datetime(2026, 2, 1, 8, 0, tzinfo=timezone.utc)

# (kind, [(date or None, statement)], question)
EN_PLANTED = [
    ("paraphrase", [(None, "My sister Emma just got hired as a paramedic in Leeds.")], "What did I tell you about my sibling's new position?"),
    ("paraphrase", [(None, "I've decided to stop eating meat, starting this month.")], "Did I mention any change to my diet?"),
    ("paraphrase", [(None, "The landlord finally agreed to fix the boiler next Thursday.")], "What's happening with the heating in my flat?"),
    ("paraphrase", [(None, "I adopted a grey kitten from the shelter, she's called Pebble.")], "Do I have any pets?"),
    ("paraphrase", [(None, "I'm terrified of flying, I always take the train when I can.")], "How do I feel about planes?"),
    ("paraphrase", [(None, "We booked two weeks in Kyoto for October.")], "Where am I travelling in the autumn?"),
    ("paraphrase", [(None, "I finally passed my driving test on the third attempt!")], "Did I get my licence?"),
    ("paraphrase", [(None, "I switched banks because of the fees, I'm with Monzo now.")], "Which bank do I use?"),
    ("paraphrase", [(None, "My knee has been aching since the half marathon.")], "Did I get hurt after that long run?"),
    ("paraphrase", [(None, "Honestly I can't stand coriander, it tastes like soap to me.")], "Is there any herb I dislike?"),
    ("multihop", [(None, "My old flatmate Priya gave me a sourdough starter as a leaving present."), (None, "Priya moved to Lisbon to work for a design studio.")], "Where does the person who gave me the sourdough starter live now?"),
    ("multihop", [(None, "My manager at work is called Daniel."), (None, "Daniel told us he is leaving the company in December.")], "Is my boss staying at the company?"),
    ("multihop", [(None, "My neighbour Rosa looks after my plants when I travel."), (None, "Rosa broke her wrist falling off her bike.")], "What happened to the person who waters my plants?"),
    ("multihop", [(None, "The cello teacher my son goes to is Mr Okafor."), (None, "Okafor is moving his lessons to Saturday mornings.")], "When are my son's music lessons now?"),
    ("temporal", [(datetime(2026, 4, 9, 18, 30, tzinfo=timezone.utc), "Today I had my first pottery class, my bowl is wonky but I love it.")], "When did I start pottery?"),
    ("temporal", [(datetime(2026, 6, 2, 10, 0, tzinfo=timezone.utc), "We signed the mortgage papers this morning, the house is ours!")], "When did we sign for the house?"),
    ("temporal", [(datetime(2026, 11, 12, 9, 0, tzinfo=timezone.utc), "Ugh, I left my wallet on the bus this morning.")], "What did I lose last week?"),
    ("temporal", [(datetime(2026, 3, 17, 16, 0, tzinfo=timezone.utc), "Big news: they made me senior engineer!")], "What happened at work in March?"),
    ("temporal", [(datetime(2026, 11, 17, 12, 0, tzinfo=timezone.utc), "The dentist says I need a crown on a back tooth.")], "What did the dentist tell me three days ago?"),
    ("words", [(None, "My favourite band is Radiohead, I've seen them four times.")], "What is my favourite band?"),
    ("words", [(None, "For the record, my blood type is O negative.")], "What is my blood type?"),
    ("words", [(None, "I'm allergic to penicillin, it gives me hives.")], "Am I allergic to penicillin?"),
    ("words", [(None, "My daughter started at St Mary's primary school.")], "Which school does my daughter go to?"),
    ("words", [(None, "I keep the spare key under the blue flowerpot.")], "Where do I keep the spare key?"),
    ("words", [(None, "I want to learn Japanese before the Kyoto trip.")], "Which language do I want to learn?"),
]

ES_PLANTED = [
    ("paraphrase", [(None, "Mi hermana Lucía empezó a trabajar como enfermera en el hospital La Fe.")], "¿Qué te conté del nuevo empleo de mi hermana?"),
    ("paraphrase", [(None, "He dejado de fumar, ya llevo tres semanas sin un cigarro.")], "¿Tengo algún vicio del que me esté quitando?"),
    ("paraphrase", [(None, "El casero por fin va a cambiar la caldera el jueves.")], "¿Qué pasa con la calefacción de mi piso?"),
    ("paraphrase", [(None, "Hemos adoptado un perro de la protectora, se llama Tango.")], "¿Tengo mascota?"),
    ("paraphrase", [(None, "Me da pánico conducir por autopista, prefiero ir por carreteras secundarias.")], "¿Qué me pone nerviosa al volante?"),
    ("paraphrase", [(None, "Hemos reservado diez días en Islandia para agosto.")], "¿A dónde me voy de vacaciones en verano?"),
    ("paraphrase", [(None, "¡Aprobé las oposiciones de maestra a la primera!")], "¿Conseguí plaza en el examen para ser profesora?"),
    ("paraphrase", [(None, "Me he apuntado a clases de natación los martes y jueves.")], "¿Hago algún deporte en el agua?"),
    ("paraphrase", [(None, "Desde la caída de la moto me duele el hombro izquierdo.")], "¿Tengo alguna lesión del accidente?"),
    ("paraphrase", [(None, "No soporto el cilantro, me sabe a jabón.")], "¿Hay alguna hierba que no me guste?"),
    ("multihop", [(None, "Mi prima Carmen me regaló una bicicleta de montaña por mi cumpleaños."), (None, "Carmen se ha ido a vivir a Valparaíso con su pareja.")], "¿Dónde vive ahora quien me regaló la bici?"),
    ("multihop", [(None, "Mi jefa en la oficina se llama Marta Ruiz."), (None, "Marta Ruiz se jubila en diciembre.")], "¿Mi jefa va a seguir en la empresa?"),
    ("multihop", [(None, "Mi vecino Andrés me riega las plantas cuando viajo."), (None, "Andrés se ha roto la pierna esquiando.")], "¿Qué le ha pasado a quien me cuida las plantas?"),
    ("multihop", [(None, "La profesora de piano de mi hija es Irene Soler."), (None, "Irene Soler ha pasado las clases a los viernes por la tarde.")], "¿Qué día tiene ahora mi hija su clase de música?"),
    ("temporal", [(datetime(2026, 4, 14, 19, 0, tzinfo=timezone.utc), "Hoy he tenido mi primera clase de cerámica, qué relajante.")], "¿Cuándo empecé con la cerámica?"),
    ("temporal", [(datetime(2026, 7, 3, 11, 0, tzinfo=timezone.utc), "Esta mañana hemos firmado la hipoteca, ¡la casa es nuestra!")], "¿Cuándo firmamos lo de la casa?"),
    ("temporal", [(datetime(2026, 11, 11, 9, 30, tzinfo=timezone.utc), "Qué rabia, me he dejado el paraguas en el metro.")], "¿Qué perdí la semana pasada?"),
    ("temporal", [(datetime(2026, 3, 20, 17, 0, tzinfo=timezone.utc), "¡Me han ascendido a jefa de proyecto!")], "¿Qué me pasó en el trabajo en marzo?"),
    ("temporal", [(datetime(2026, 11, 17, 13, 0, tzinfo=timezone.utc), "El oculista dice que necesito gafas para leer.")], "¿Qué me dijo el oculista hace tres días?"),
    ("words", [(None, "Mi grupo favorito es Vetusta Morla, los he visto cinco veces.")], "¿Cuál es mi grupo favorito?"),
    ("words", [(None, "Mi grupo sanguíneo es A positivo.")], "¿Cuál es mi grupo sanguíneo?"),
    ("words", [(None, "Soy alérgica al ibuprofeno, me da urticaria.")], "¿Soy alérgica al ibuprofeno?"),
    ("words", [(None, "Mi hijo va al colegio Cervantes.")], "¿A qué colegio va mi hijo?"),
    ("words", [(None, "Guardo la llave de repuesto debajo de la maceta azul.")], "¿Dónde guardo la llave de repuesto?"),
    ("words", [(None, "Quiero aprender alemán antes de mudarme a Berlín.")], "¿Qué idioma quiero aprender?"),
]

# Things said once that no question asks about. Real histories are full of them, and
# they sit alone in meaning just as the evidence does, so being said once is no
# giveaway. Many are near a question's topic on purpose (someone else's pet, job,
# trip or injury).
EN_DISTRACTORS = [
    "My cousin Mark got promoted to head chef at his restaurant in Bristol.",
    "My best friend Zoe started a new job as a primary teacher in York.",
    "My brother's girlfriend is training to be a firefighter.",
    "Dad has started eating more fish because his doctor told him to.",
    "I've been drinking oat milk instead of cow's milk for a while.",
    "The washing machine in the flat leaks every time we use it.",
    "Our street has had no hot water since the roadworks began.",
    "My neighbour's parrot can whistle the whole Star Wars theme.",
    "Zoe's dog chewed through her new sofa cushions.",
    "My parents are going on a cruise around the Greek islands in September.",
    "We spent a rainy weekend in Cornwall at a friend's cottage.",
    "My son finally got his swimming badge after months of trying.",
    "I renewed my passport, the photo is awful.",
    "I cancelled my gym membership, I was paying for nothing.",
    "My brother sprained his ankle playing five-a-side.",
    "I have a dentist phobia, I put off check-ups for years.",
    "I've fallen in love with fresh basil, I grow it on the windowsill.",
    "My mum can't stand garlic, so I cook without it when she visits.",
    "We're thinking of putting solar panels on the roof.",
    "I lent my camera to Jake for his trip to Peru.",
    "The council is finally repairing the potholes on our street.",
    "I signed up for an evening photography course.",
    "My grandmother turned ninety and we threw her a surprise party.",
    "I sold my old bike to a student from the university.",
    "I've started journaling every morning before work.",
    "My daughter lost her first tooth at the cinema.",
    "Our boiler at the office broke and we all worked in coats.",
    "I got a parking fine outside the library, so annoying.",
    "My friend Tom is moving to Canada with his family.",
    "I finished a thousand-piece puzzle of the London skyline.",
    "I'm thinking about volunteering at the food bank on Saturdays.",
    "Our team won the pub quiz for the first time ever.",
    "I dyed my hair dark red, nobody at work noticed.",
    "My uncle Peter had knee surgery and is recovering at home.",
    "I bought a secondhand piano from a lady down the road.",
    "The kids built a treehouse with their grandad.",
    "I watched the sunrise from the hill behind our house.",
    "I've been learning to knit from videos, my scarf is lopsided.",
    "My flatmate from uni, Sam, is getting married in June.",
    "We switched to a green energy supplier for the house.",
]
ES_DISTRACTORS = [
    "Mi primo Javier ha conseguido plaza de cocinero en un restaurante de Bilbao.",
    "Mi mejor amiga Nuria ha empezado a trabajar de profesora en Toledo.",
    "La novia de mi hermano está estudiando para ser bombera.",
    "Mi padre come más pescado porque se lo ha mandado el médico.",
    "Desde hace un tiempo tomo bebida de avena en vez de leche.",
    "La lavadora del piso pierde agua cada vez que la ponemos.",
    "En nuestra calle no hay agua caliente desde que empezaron las obras.",
    "El loro de la vecina silba el himno del Betis entero.",
    "El perro de Nuria se ha comido los cojines del sofá nuevo.",
    "Mis padres se van de crucero por las islas griegas en septiembre.",
    "Pasamos un fin de semana lluvioso en Asturias en casa de unos amigos.",
    "Mi hija por fin ha sacado el diploma de natación.",
    "He renovado el pasaporte, la foto es horrorosa.",
    "Me he dado de baja del gimnasio, pagaba para nada.",
    "Mi hermano se torció el tobillo jugando al fútbol sala.",
    "Tengo pánico al dentista, llevo años sin ir a revisión.",
    "Me encanta la albahaca fresca, la cultivo en la ventana.",
    "Mi madre no soporta el ajo, así que cocino sin él cuando viene.",
    "Estamos pensando en poner placas solares en el tejado.",
    "Le he prestado la cámara a Jaime para su viaje a Perú.",
    "El ayuntamiento por fin está arreglando los baches de la calle.",
    "Me he apuntado a un curso de fotografía por las tardes.",
    "Mi abuela cumplió noventa años y le hicimos una fiesta sorpresa.",
    "He vendido mi bici vieja a un estudiante de la universidad.",
    "He empezado a escribir un diario cada mañana antes del trabajo.",
    "A mi hijo se le cayó el primer diente en el cine.",
    "Se rompió la calefacción de la oficina y trabajamos con abrigo.",
    "Me han puesto una multa de aparcamiento delante de la biblioteca.",
    "Mi amigo Tomás se muda a Canadá con su familia.",
    "He terminado un puzle de mil piezas del skyline de Madrid.",
    "Estoy pensando en hacer voluntariado en el banco de alimentos los sábados.",
    "Nuestro equipo ganó el concurso de preguntas del bar por primera vez.",
    "Me he teñido el pelo de rojo oscuro y en el trabajo nadie se ha dado cuenta.",
    "A mi tío Pedro lo han operado de la rodilla y se recupera en casa.",
    "He comprado un piano de segunda mano a una señora del barrio.",
    "Los niños han construido una cabaña en el árbol con su abuelo.",
    "Vi amanecer desde el monte que hay detrás de casa.",
    "Estoy aprendiendo a hacer punto con vídeos, la bufanda me ha salido torcida.",
    "Mi compañero de piso de la universidad, Samuel, se casa en junio.",
    "Hemos cambiado a una compañía de luz verde en casa.",
]

EN_FILLER = [
    "Work was long today, back-to-back meetings about the {thing}.",
    "My sister called just to chat about {show}.",
    "Did you see the new episode of {show}? I'm hooked.",
    "The bus was late again, {n} minutes standing in the {weather}.",
    "I made {food} for dinner, it turned out {adj}.",
    "Thinking about repainting the living room {colour}.",
    "I need to buy {item} this weekend, remind me to make a list.",
    "The weather is {weather} again, typical.",
    "I went for a {n} km walk along the river, felt {adj}.",
    "My colleague brought {food} to the office, so nice of her.",
    "Tell me something interesting about {topic}.",
    "I can't decide between {food} and {food2} for lunch.",
    "What did you think about the {topic} article I mentioned?",
    "I'm tired, the new project at work is eating my evenings.",
    "Watched a documentary about {topic}, it was {adj}.",
    "The kids want to go to the {place} on Sunday.",
    "My mum sent me a recipe for {food}.",
    "I tried a new café near the {place}, the coffee was {adj}.",
    "Should I start reading {book}? People keep recommending it.",
    "Another day, another {thing} at work.",
    "My friend got a new job at a {company}, good for him.",
    "I fixed the {item} myself, feeling handy.",
    "Traffic was awful on the way back from the {place}.",
    "What's a good way to stay focused when working from home?",
    "I've been sleeping badly, maybe it's the {weather} nights.",
    "The gym was packed, I'll go earlier tomorrow.",
    "We played board games with my sister and her friends.",
    "Tell me a joke about {topic}.",
    "The {item} broke again, I need a new one.",
    "Had a long call with my brother about the {thing}.",
]
# Half the filler gets one of these after it, and a fifth is two filler lines in one
# message, so everyday chat varies as it does between people instead of repeating
# word for word (exact repeats would make anything said once stand out too easily).
EN_TAILS = [
    "Anyway.", "Not sure why.", "So that's my day.", "Honestly.", "Typical Monday.", "Oh well.",
    "Can't complain.", "Such is life.", "Fingers crossed.", "What a week.", "Meh.", "Long story.",
    "Just saying.", "Funny how that goes.", "I'll live.", "Back to it.", "Could be worse.",
    "Ugh.", "Pretty happy about it.", "More tomorrow.",
]
ES_TAILS = [
    "En fin.", "No sé por qué.", "Así ha ido el día.", "La verdad.", "Lunes típico.", "Qué le vamos a hacer.",
    "No me quejo.", "Así es la vida.", "Crucemos los dedos.", "Vaya semana.", "Bah.", "Es largo de contar.",
    "Lo dicho.", "Qué cosas.", "Sobreviviré.", "A seguir.", "Podría ser peor.",
    "Uf.", "Bastante contenta.", "Mañana más.",
]

EN_REPLIES = [
    "That sounds {adj}! How are you feeling about it?",
    "I hear you. Want to talk it through?",
    "Nice! Tell me more when you have a moment.",
    "Good to know. Anything I can help with?",
    "Oh no, that's annoying. Hope tomorrow is better.",
    "Here's a thought: take it one step at a time.",
    "Ha, fair enough. What's next on your list?",
    "Noted. Enjoy the rest of your day!",
]
EN_SLOTS = {
    "thing": ["budget", "roadmap", "quarterly report", "client visit", "reorg", "migration", "deadline"],
    "show": ["The Bear", "Severance", "Slow Horses", "Bake Off", "the football", "that quiz show"],
    "n": ["10", "20", "25", "40", "5", "15"],
    "weather": ["rain", "cold", "wind", "drizzle", "heat", "fog"],
    "food": ["lasagne", "curry", "risotto", "tacos", "soup", "pancakes", "stir fry", "shepherd's pie"],
    "food2": ["a salad", "a sandwich", "noodles", "leftovers"],
    "adj": ["great", "okay", "weird", "lovely", "exhausting", "fun", "boring"],
    "colour": ["green", "white", "pale blue", "terracotta"],
    "item": ["a kettle", "batteries", "a lamp", "the vacuum", "a printer", "shoes", "a backpack"],
    "topic": ["octopuses", "black holes", "Roman roads", "bees", "volcanoes", "the history of tea", "chess"],
    "place": ["park", "beach", "museum", "market", "zoo", "station"],
    "book": ["Project Hail Mary", "Piranesi", "Middlemarch", "The Overstory"],
    "company": ["bank", "startup", "bakery", "school"],
}

ES_FILLER = [
    "Hoy en el trabajo ha sido un día largo, reuniones sobre el {thing}.",
    "Mi hermana me llamó para hablar de {show}.",
    "¿Has visto el nuevo capítulo de {show}? Me tiene enganchada.",
    "El autobús llegó tarde otra vez, {n} minutos esperando con {weather}.",
    "He hecho {food} para cenar, me ha salido {adj}.",
    "Estoy pensando en pintar el salón de {colour}.",
    "Tengo que comprar {item} este finde, recuérdame hacer una lista.",
    "Otra vez {weather}, qué novedad.",
    "He caminado {n} kilómetros por el río, me he sentido {adj}.",
    "Mi compañera ha traído {food} a la oficina, qué detalle.",
    "Cuéntame algo interesante sobre {topic}.",
    "No sé si comer {food} o {food2}.",
    "¿Qué te pareció lo de {topic} que te comenté?",
    "Estoy cansada, el nuevo proyecto del trabajo me come las tardes.",
    "He visto un documental sobre {topic}, ha sido {adj}.",
    "Los niños quieren ir al {place} el domingo.",
    "Mi madre me ha mandado una receta de {food}.",
    "Probé una cafetería nueva cerca del {place}, el café estaba {adj}.",
    "¿Empiezo a leer {book}? Todo el mundo me lo recomienda.",
    "Otro día, otro {thing} en el trabajo.",
    "Mi amigo tiene trabajo nuevo en un {company}, me alegro por él.",
    "He arreglado {item} yo sola, qué manitas.",
    "Había un atasco horrible al volver del {place}.",
    "¿Cómo puedo concentrarme mejor trabajando desde casa?",
    "Duermo fatal, será por las noches de {weather}.",
    "El gimnasio estaba lleno, mañana iré antes.",
    "Jugamos a juegos de mesa con mi hermana y sus amigas.",
    "Cuéntame un chiste sobre {topic}.",
    "Se ha vuelto a romper {item}, necesito otro.",
    "He hablado un buen rato con mi hermano sobre el {thing}.",
]
ES_REPLIES = [
    "¡Suena {adj}! ¿Cómo te sientes con eso?",
    "Te entiendo. ¿Quieres que lo hablemos?",
    "¡Qué bien! Cuéntame más cuando puedas.",
    "Anotado. ¿Te ayudo con algo?",
    "Vaya, qué fastidio. Ojalá mañana vaya mejor.",
    "Una idea: ve paso a paso.",
    "Ja, tiene sentido. ¿Qué es lo siguiente?",
    "Entendido. ¡Que disfrutes el resto del día!",
]
ES_SLOTS = {
    "thing": ["presupuesto", "plan del trimestre", "informe", "cliente", "cambio de equipo", "plazo"],
    "show": ["La Casa de Papel", "Élite", "el Mundial", "MasterChef", "Pasapalabra", "esa serie coreana"],
    "n": ["10", "20", "25", "40", "5", "15"],
    "weather": ["lluvia", "frío", "viento", "calor", "niebla"],
    "food": ["lentejas", "paella", "tortilla", "croquetas", "gazpacho", "pasta", "salmorejo"],
    "food2": ["una ensalada", "un bocadillo", "sobras", "fideos"],
    "adj": ["genial", "regular", "raro", "precioso", "agotador", "divertido", "aburrido"],
    "colour": ["verde", "blanco", "azul claro", "terracota"],
    "item": ["el hervidor", "pilas", "una lámpara", "la aspiradora", "la impresora", "zapatillas", "una mochila"],
    "topic": ["los pulpos", "los agujeros negros", "las calzadas romanas", "las abejas", "los volcanes", "el té", "el ajedrez"],
    "place": ["parque", "playa", "museo", "mercado", "zoo", "centro"],
    "book": ["Patria", "Cien años de soledad", "La sombra del viento", "Nada"],
    "company": ["banco", "startup", "horno", "colegio"],
}


def fill(template, slots, rng):
    out = template
    for name, values in slots.items():
        while "{" + name + "}" in out:
            out = out.replace("{" + name + "}", rng.choice(values), 1)
    return out


def chatter(filler, tails, slots, rng):
    """One everyday message: a filler line, sometimes two, sometimes with a tail."""
    text = fill(rng.choice(filler), slots, rng)
    if rng.random() < 0.2:
        text += " " + fill(rng.choice(filler), slots, rng)
    if rng.random() < 0.5:
        text += " " + rng.choice(tails)
    return text


def conversation(lang, planted, distractors, filler, tails, replies, slots, rng, next_id):
    """Messages over START..NOW (about 4.5 a day), planted statements at their dates
    (or spread evenly) and distractors said once each at random moments, each followed
    by a reply. Returns (messages, questions)."""
    days = (NOW - START).days
    undated = [(qi, si) for qi, (_, statements, _) in enumerate(planted) for si, (date, _) in enumerate(statements) if date is None]
    rng.shuffle(undated)
    # Undated statements spread over the span; the two halves of a multi-hop pair end up far apart.
    slots_for = {}
    for i, key in enumerate(undated):
        slots_for[key] = START + timedelta(days=(i + 0.5) * days / len(undated), hours=rng.randint(0, 10))
    events = []
    for qi, (_, statements, _) in enumerate(planted):
        for si, (date, text) in enumerate(statements):
            events.append((date or slots_for[(qi, si)], "planted", (qi, si, text)))
    for text in distractors:
        events.append((START + timedelta(minutes=rng.randint(0, days * 24 * 60)), "distractor", text))
    t = START
    while t < NOW - timedelta(hours=3):
        events.append((t, "filler", None))
        t += timedelta(minutes=rng.randint(180, 420))
    events.sort(key=lambda e: e[0])
    messages, evidence = [], {}
    for at, kind, payload in events:
        if kind == "planted":
            qi, si, text = payload
            evidence.setdefault(qi, []).append(next_id)
            user = text
        elif kind == "distractor":
            user = payload
        else:
            user = chatter(filler, tails, slots, rng)
        messages.append({"id": next_id, "role": "user", "content": user, "timestamp": at.strftime("%Y-%m-%dT%H:%M:%SZ")})
        next_id += 1
        reply_at = at + timedelta(seconds=rng.randint(5, 40))
        messages.append({"id": next_id, "role": "assistant", "content": fill(rng.choice(replies), slots, rng), "timestamp": reply_at.strftime("%Y-%m-%dT%H:%M:%SZ")})
        next_id += 1
    questions = [
        {"lang": lang, "kind": kind, "question": question, "evidence": evidence[qi]}
        for qi, (kind, _, question) in enumerate(planted)
    ]
    return messages, questions, next_id


def main():
    rng = random.Random(20261123)
    en_messages, en_questions, next_id = conversation("en", EN_PLANTED, EN_DISTRACTORS, EN_FILLER, EN_TAILS, EN_REPLIES, EN_SLOTS, rng, 1)
    es_messages, es_questions, _ = conversation("es", ES_PLANTED, ES_DISTRACTORS, ES_FILLER, ES_TAILS, ES_REPLIES, ES_SLOTS, rng, next_id)
    out = {
        "now": NOW.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "zone": "Europe/Madrid",
        "conversations": [en_messages, es_messages],
        "questions": en_questions + es_questions,
    }
    path = Path(__file__).resolve().parent.parent / "benches" / "data" / "recall_eval.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n")
    print(f"{path}: {len(en_messages) + len(es_messages)} messages, {len(out['questions'])} questions")


if __name__ == "__main__":
    main()
