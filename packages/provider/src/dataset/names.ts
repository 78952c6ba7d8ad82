/**
 * Name pools: person names by language, club-name and venue-name patterns by football culture.
 * Patterns use `{c}` for a city and `{s}` for a surname. Lists are comma-separated to keep this file data.
 */

export interface NamePool { first: readonly string[], last: readonly string[] }

const list = (text: string): string[] => text.split(',').map((s) => s.trim()).filter((s) => s !== '')
const pool = (first: string, last: string): NamePool => ({ first: list(first), last: list(last) })

export const NAME_POOLS: Readonly<Record<string, NamePool>> = {
  en: pool('James, Harry, Jack, Oliver, George, Thomas, William, Daniel, Joe, Callum, Lewis, Ryan, Jordan, Mason, Luke, Kieran, Ben, Sam, Charlie, Declan, Connor, Jamie, Aaron, Marcus, Reece, Tyler, Liam, Nathan',
    'Smith, Jones, Taylor, Brown, Walker, Wright, Robinson, Thompson, White, Hughes, Edwards, Green, Hall, Wood, Harris, Clarke, Jackson, Turner, Hill, Moore, Cooper, Ward, Morris, King, Baker, Barnes, Mitchell, Foster, Palmer, Lewis, Carter, Davies, Bennett, Fletcher'),
  sc: pool('Andrew, Callum, Craig, Euan, Fraser, Greig, Hamish, Iain, Kenny, Kyle, Lewis, Ross, Ryan, Scott, Stuart, Gregor, Lyndon, Billy, Kieran, Jamie, Liam, Angus, Declan, Ewan',
    'McGregor, Robertson, Campbell, Stewart, Anderson, MacDonald, McLean, Fraser, Murray, Paterson, Kerr, Ferguson, McKenna, Christie, Hendry, Armstrong, Cameron, Henderson, Ross, Duncan, Morrison, Graham, Reid, Boyd, Docherty, Cowie, McAllister, Wallace, Sinclair, Hamilton'),
  da: pool('Mads, Rasmus, Mikkel, Frederik, Jonas, Kasper, Andreas, Christian, Emil, Jesper, Lasse, Mathias, Nicolai, Oliver, Simon, Søren, Thomas, Victor, Magnus, Jakob, Anders, Jens, Morten, Kristoffer, Gustav',
    'Nielsen, Jensen, Hansen, Pedersen, Andersen, Christensen, Larsen, Sørensen, Rasmussen, Jørgensen, Petersen, Madsen, Kristensen, Olsen, Thomsen, Poulsen, Johansen, Knudsen, Mortensen, Møller, Skov, Lund, Bech, Vestergaard, Holm, Frandsen, Bruun, Dahl, Friis, Lauridsen'),
  nordic: pool('Erik, Lars, Anders, Johan, Emil, Viktor, Alexander, Isak, Ludwig, Mattias, Sander, Kristoffer, Martin, Jørgen, Ola, Håkon, Fredrik, Sebastian, Oscar, Filip, Gustav, Markus, Henrik, Sindre',
    'Johansson, Andersson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, Svensson, Gustafsson, Lindqvist, Berg, Lindberg, Hansen, Johansen, Olsen, Larsen, Nilsen, Kristiansen, Haugen, Bakke, Strand, Dahl, Solberg, Moen, Lie, Berge, Holm'),
  fi: pool('Teemu, Jukka, Lukas, Joel, Robin, Jere, Rasmus, Onni, Oliver, Fredrik, Robert, Pyry, Leo, Jesse, Niko, Juhani, Eetu, Topi, Aleksi, Mikko',
    'Korhonen, Virtanen, Mäkinen, Nieminen, Mäkelä, Hämäläinen, Laine, Heikkinen, Koskinen, Järvinen, Lehtonen, Lehtinen, Saarinen, Salminen, Heinonen, Niemi, Kinnunen, Salonen, Turunen, Väisänen'),
  de: pool('Lukas, Leon, Jonas, Felix, Maximilian, Niklas, Tim, Julian, Florian, Kai, Thomas, Manuel, Marco, Mats, Joshua, Jan, Kevin, Sebastian, Tobias, Benjamin, Robin, Marvin, Dennis, Moritz, Nico, Jannik',
    'Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Koch, Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hofmann, Hartmann, Lange, Werner, Krause, Lehmann, Köhler, Maier, Vogel, Frank, Berger, Keller'),
  nl: pool('Daan, Sem, Lucas, Milan, Thijs, Jesse, Bram, Ruben, Stijn, Jasper, Kevin, Wout, Joey, Teun, Lars, Jordy, Sven, Tim, Davy, Quinten, Mats, Jurriën, Noa, Luuk',
    'de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Visser, Smit, Meijer, de Boer, Mulder, de Groot, Bos, Vos, Peters, Hendriks, van Leeuwen, Dekker, Brouwer, de Wit, Dijkstra, Smits, de Graaf, van der Meer, Kuipers, Veenstra, Hoekstra, van Beek'),
  be: pool('Kevin, Thibaut, Romelu, Axel, Youri, Leandro, Arthur, Charles, Jérémy, Lois, Dries, Jan, Thomas, Timothy, Hans, Maxime, Wout, Senne, Arne, Koni, Amadou, Zeno',
    'Peeters, Janssens, Maes, Jacobs, Mertens, Willems, Claes, Goossens, Wouters, De Smet, Dubois, Lambert, Dupont, Martin, Simon, Laurent, Vermeulen, Van Damme, De Bruyne, Lemaire, Renard, Declercq, Verhaegen, Debast'),
  fr: pool('Lucas, Hugo, Théo, Antoine, Kylian, Ousmane, Adrien, Benjamin, Clément, Jules, Mathis, Raphaël, Aurélien, Youssouf, Nabil, Corentin, Florian, Maxime, Alexandre, Nicolas, Léo, Baptiste, Enzo, Romain, Bafodé',
    'Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, Lefebvre, Michel, Garcia, David, Bertrand, Roux, Vincent, Fournier, Morel, Girard, André, Mercier, Dupont, Lambert, Bonnet, François, Camara, Diallo, Koné, Traoré, Mendy'),
  es: pool('Alejandro, Pablo, Sergio, Javier, Álvaro, Daniel, Carlos, Iker, Marcos, Raúl, Rodrigo, Dani, Mikel, Unai, Pedro, Gonzalo, Ferran, Adrián, Jorge, Diego, Nicolás, Hugo, Aitor, Borja, Rubén, Íñigo',
    'García, Fernández, González, Rodríguez, López, Martínez, Sánchez, Pérez, Gómez, Martín, Jiménez, Ruiz, Hernández, Díaz, Moreno, Muñoz, Álvarez, Romero, Alonso, Gutiérrez, Navarro, Torres, Domínguez, Vázquez, Ramos, Gil, Serrano, Blanco, Molina, Morales, Ortega, Delgado, Castro, Ortiz'),
  latam: pool('Matías, Santiago, Facundo, Agustín, Nicolás, Lautaro, Emiliano, Julián, Enzo, Thiago, Franco, Gonzalo, Rodrigo, Federico, Juan, Luis, Diego, Andrés, Camilo, Felipe, Sebastián, Cristian, Jhon, Hirving, Alexis',
    'González, Rodríguez, Gómez, Fernández, López, Díaz, Martínez, Pérez, Romero, Sosa, Álvarez, Torres, Ruiz, Ramírez, Flores, Acosta, Benítez, Medina, Herrera, Suárez, Aguirre, Giménez, Molina, Silva, Castro, Rojas, Vargas, Muñoz, Cardona, Valencia'),
  pt: pool('João, Diogo, Rúben, Bernardo, Bruno, Rafael, Gonçalo, Nuno, Pedro, Tiago, André, Ricardo, Rui, Francisco, Miguel, Fábio, Nélson, Renato, Danilo, Otávio, Hugo, Sérgio, Luís, José, Vítor',
    'Silva, Santos, Ferreira, Pereira, Oliveira, Costa, Rodrigues, Martins, Jesus, Sousa, Fernandes, Gonçalves, Gomes, Lopes, Marques, Alves, Almeida, Ribeiro, Pinto, Carvalho, Teixeira, Moreira, Correia, Mendes, Nunes, Soares, Vieira, Monteiro, Cardoso, Rocha'),
  br: pool('Gabriel, Lucas, Matheus, Vinícius, Rodrigo, Bruno, Gustavo, Felipe, Thiago, Rafael, Guilherme, Pedro, Douglas, Everton, Leandro, Anderson, Wesley, Caio, Igor, Murilo, João, Vitor, Henrique, Diego, Carlos',
    'Silva, Santos, Oliveira, Souza, Lima, Pereira, Ferreira, Costa, Rodrigues, Almeida, Nascimento, Barbosa, Araújo, Cavalcanti, Andrade, Moura, Batista, Dias, Freitas, Ribeiro, Martins, Carvalho, Gomes, Rocha, Teixeira'),
  it: pool('Alessandro, Lorenzo, Federico, Nicolò, Matteo, Marco, Andrea, Giorgio, Gianluigi, Davide, Francesco, Giacomo, Riccardo, Simone, Stefano, Luca, Leonardo, Manuel, Sandro, Ciro, Domenico, Mattia, Gabriele, Alessio, Daniele',
    'Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro, Mariani, Rinaldi, Caruso, Ferrara, Galli, Martini, Leone, Longo, Gentile'),
  pl: pool('Jakub, Kamil, Piotr, Robert, Krzysztof, Mateusz, Bartosz, Łukasz, Wojciech, Przemysław, Sebastian, Karol, Grzegorz, Michał, Paweł, Tomasz, Arkadiusz, Jan, Adam, Damian',
    'Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Szymański, Woźniak, Dąbrowski, Kozłowski, Jankowski, Mazur, Krawczyk, Grabowski, Pawlak, Michalski, Zając, Król, Wieczorek, Jabłoński, Majewski, Olszewski'),
  cs: pool('Tomáš, Jakub, Jan, Lukáš, Ondřej, Petr, Martin, Adam, Vladimír, Patrik, Marek, Milan, Pavel, Michal, David, Matěj, Filip, Stanislav, Róbert, Peter, Juraj, Dávid, Ján, Marián',
    'Novák, Svoboda, Novotný, Dvořák, Černý, Procházka, Kučera, Veselý, Horák, Němec, Pokorný, Marek, Pospíšil, Hájek, Král, Jelínek, Růžička, Beneš, Fiala, Sedláček, Kováč, Horváth, Tóth, Varga, Baláž, Hudák'),
  uk: pool('Oleksandr, Andriy, Mykola, Viktor, Serhiy, Dmytro, Yevhen, Vitaliy, Ruslan, Taras, Roman, Artem, Illia, Mykhailo, Volodymyr, Yaroslav, Bohdan, Maksym, Heorhiy, Vladyslav',
    'Shevchenko, Kovalenko, Bondarenko, Tkachenko, Kravchenko, Oliynyk, Shevchuk, Koval, Polishchuk, Bondar, Tkachuk, Moroz, Marchenko, Lysenko, Rudenko, Savchenko, Petrenko, Melnyk, Boyko, Kovalchuk'),
  balkan: pool('Luka, Ivan, Marko, Mateo, Josip, Nikola, Dejan, Filip, Ante, Mario, Andrej, Dušan, Aleksandar, Sergej, Stefan, Lazar, Nemanja, Milan, Domagoj, Bruno, Borna, Lovro, Žan, Miha',
    'Horvat, Kovačević, Babić, Marić, Jurić, Novak, Petrović, Jovanović, Nikolić, Marković, Đorđević, Stojanović, Ilić, Pavlović, Milošević, Vuković, Knežević, Tomić, Krajnc, Zupan, Kos, Vidmar, Golob, Kolar'),
  bg: pool('Georgi, Ivan, Dimitar, Nikolay, Petar, Kiril, Stoyan, Martin, Todor, Hristo, Vasil, Aleksandar, Radoslav, Valentin, Plamen, Iliya, Atanas, Stanislav, Kristian, Borislav',
    'Ivanov, Georgiev, Dimitrov, Petrov, Nikolov, Hristov, Stoyanov, Todorov, Iliev, Vasilev, Atanasov, Angelov, Marinov, Kostov, Popov, Yordanov, Kolev, Mihaylov, Krastev, Pavlov'),
  hu: pool('Dominik, Ádám, Bence, Balázs, Dániel, Péter, Roland, Zsolt, Attila, Gergő, Kevin, Márton, Barnabás, Norbert, Tamás, László, András, Zoltán, Krisztián, Milán',
    'Nagy, Kovács, Tóth, Szabó, Horváth, Varga, Kiss, Molnár, Németh, Farkas, Balogh, Papp, Takács, Juhász, Lakatos, Mészáros, Oláh, Simon, Rácz, Fekete'),
  ro: pool('Andrei, Alexandru, Ionuț, Răzvan, Nicolae, Florin, Denis, Vlad, Bogdan, Cristian, Radu, Mihai, Darius, Valentin, Claudiu, George, Adrian, Cătălin, Marius, Dennis',
    'Popescu, Ionescu, Popa, Stan, Dumitru, Stoica, Gheorghe, Matei, Ciobanu, Rusu, Munteanu, Constantin, Marin, Tănase, Lazăr, Stanciu, Moldovan, Dinu, Barbu, Neagu'),
  el: pool('Giorgos, Konstantinos, Dimitrios, Nikos, Kostas, Vangelis, Panagiotis, Christos, Vasilis, Anastasios, Petros, Manolis, Andreas, Sotiris, Thanasis, Stelios, Fotis, Lazaros, Giannis, Michalis',
    'Papadopoulos, Papadakis, Georgiou, Oikonomou, Dimitriou, Nikolaidis, Karagiannis, Vlachos, Papanikolaou, Christodoulou, Konstantinidis, Pavlidis, Makris, Alexiou, Antoniou, Theodorou, Kyriakou, Stavrou, Ioannidis, Lambrou'),
  tr: pool('Arda, Hakan, Kerem, Burak, Cengiz, Emre, Mert, Ozan, Orkun, Ferdi, Kaan, Zeki, Barış, Cenk, Yusuf, Okay, Uğurcan, Salih, Oğuz, Halil',
    'Yılmaz, Kaya, Demir, Şahin, Çelik, Yıldız, Yıldırım, Öztürk, Aydın, Özdemir, Arslan, Doğan, Kılıç, Aslan, Çetin, Kara, Koç, Kurt, Özkan, Şimşek'),
  ja: pool('Takumi, Kaoru, Daichi, Wataru, Ritsu, Hiroki, Kyogo, Ayase, Daizen, Junya, Yuto, Shogo, Keito, Kaishu, Yuki, Shuichi, Takehiro, Ryota, Sota, Haruki',
    'Sato, Suzuki, Takahashi, Tanaka, Watanabe, Ito, Yamamoto, Nakamura, Kobayashi, Kato, Yoshida, Yamada, Sasaki, Yamaguchi, Matsumoto, Inoue, Kimura, Hayashi, Shimizu, Mori'),
  ko: pool('Min-jae, Heung-min, Kang-in, Hee-chan, Gue-sung, Jae-sung, Woo-young, Seung-ho, In-beom, Young-woo, Jin-su, Ji-soo, Tae-hwan, Sang-ho, Chang-hoon, Hyun-woo, Dong-gyeong, Jun-ho, Seol-young, Yong-woo',
    'Kim, Lee, Park, Choi, Jung, Kang, Cho, Yoon, Jang, Lim, Han, Oh, Seo, Shin, Kwon, Hwang, Ahn, Song, Hong, Jeon'),
  ar: pool('Mohamed, Ahmed, Omar, Youssef, Salem, Saleh, Ali, Abdullah, Hassan, Mahmoud, Khalid, Fahad, Yasser, Sami, Achraf, Hakim, Sofyan, Azzedine, Nayef, Firas, Amr, Tarek, Karim, Ibrahim, Hamza',
    'Al-Harbi, Al-Otaibi, Al-Qahtani, Al-Ghamdi, Al-Zahrani, Al-Shehri, Al-Dossari, Hassan, Abdelrahman, Mansour, Fathy, Ashour, Said, Gaber, El Amrani, Bennani, Alaoui, Tazi, Idrissi, Chraibi, El Fassi, Berrada'),
  ng: pool('Victor, Ademola, Samuel, Wilfred, Kelechi, Alex, Moses, Ahmed, Calvin, Frank, Joe, Ola, Taiwo, Chidozie, Semi, Emmanuel, Ikechukwu, Oluwaseun, Tochukwu, Chinedu',
    'Okafor, Okonkwo, Adeyemi, Balogun, Eze, Nwosu, Okoro, Adebayo, Ogunleye, Obi, Ibrahim, Bello, Abubakar, Chukwu, Onyeka, Afolabi, Nwachukwu, Olawale, Uche, Ekong')
}

export interface ClubStyle {
  patterns: readonly string[]
  /** Key of VENUE_PATTERNS. */
  venue: string
}

const style = (venue: string, patterns: string): ClubStyle => ({ venue, patterns: list(patterns) })

/** Club-name patterns by football culture (the `clubs` key of a country). */
export const CLUB_PATTERNS: Readonly<Record<string, ClubStyle>> = {
  en: style('en', '{c} United, {c} City, {c} FC, {c} Town, {c} Rovers, {c} Athletic, {c} Albion, {c} Wanderers, {c} County, AFC {c}'),
  sc: style('en', '{c} FC, {c} United, {c} Athletic, {c} Thistle, {c} Rovers, {c} Academical, {c} Albion, {c} City'),
  da: style('nordic', 'FC {c}, {c} BK, {c} IF, {c} Boldklub, {c} FF, AC {c}, {c} Fremad'),
  se: style('nordic', '{c} FF, {c} IF, {c} BK, IFK {c}, {c} AIK, GAIS {c}, {c} SK'),
  no: style('nordic', '{c} FK, {c} IL, SK {c}, {c} BK, {c} Fotball, IK Start {c}, Viking {c}'),
  fi: style('nordic', '{c} JK, FC {c}, {c} PS, {c} United, {c} Ilves, KuPS {c}'),
  de: style('de', '1. FC {c}, VfB {c}, VfL {c}, SV {c}, Borussia {c}, FC {c}, SC {c}, Eintracht {c}, Fortuna {c}, TSV {c}, SpVgg {c}, Arminia {c}, Union {c}'),
  ch: style('de', 'FC {c}, Grasshopper {c}, Servette {c}, Young Boys {c}, {c}-Sport, SC {c}, FC {c} 1896'),
  at: style('de', 'SK {c}, FC {c}, SV {c}, Austria {c}, Rapid {c}, Sturm {c}, Admira {c}, WSG {c}, Blau-Weiß {c}'),
  nl: style('nl', 'FC {c}, SC {c}, Sparta {c}, Fortuna {c}, Excelsior {c}, Vitesse {c}, PEC {c}, RKC {c}, NEC {c}, Go Ahead {c}, Heracles {c}'),
  be: style('nl', 'Club {c}, KV {c}, KAA {c}, Standard {c}, Sporting {c}, Royal {c}, RSC {c}, Cercle {c}, Union {c}, KRC {c}'),
  fr: style('fr', 'Olympique {c}, AS {c}, Stade {c}, RC {c}, FC {c}, {c} FC, AJ {c}, SC {c}, US {c}, En Avant {c}, Girondins {c}'),
  lu: style('fr', 'F91 {c}, FC {c}, Jeunesse {c}, Racing {c}, Swift {c}, Progrès {c}, Union {c}'),
  es: style('es', 'Real {c}, {c} CF, CD {c}, Atlético {c}, UD {c}, SD {c}, Racing {c}, Deportivo {c}, CF {c}, Sporting {c}, Club {c}'),
  pt: style('pt', 'Sporting {c}, SC {c}, FC {c}, CD {c}, Vitória {c}, GD {c}, União {c}, Académica {c}, Desportivo {c}, {c} FC'),
  it: style('it', 'AC {c}, {c} Calcio, US {c}, SS {c}, AS {c}, {c} FC, Hellas {c}, Virtus {c}, SSC {c}, Calcio {c}, Unione {c}'),
  pl: style('east', 'Legia {c}, Lech {c}, Wisła {c}, Górnik {c}, Śląsk {c}, Pogoń {c}, Zagłębie {c}, Jagiellonia {c}, Raków {c}, Warta {c}, Korona {c}'),
  cs: style('east', 'FC {c}, SK {c}, Slavia {c}, Sparta {c}, Baník {c}, FK {c}, Slovan {c}, Dukla {c}, Viktoria {c}, Sigma {c}'),
  sk: style('east', 'ŠK Slovan {c}, MŠK {c}, FC Spartak {c}, MFK {c}, FK {c}, AS {c}, FC {c}, DAC {c}'),
  uk: style('east', 'FC {c}, Dynamo {c}, Shakhtar {c}, Metalist {c}, Zorya {c}, Karpaty {c}, Dnipro {c}, Vorskla {c}, Chornomorets {c}, Rukh {c}'),
  hr: style('east', 'NK {c}, HNK {c}, Dinamo {c}, Hajduk {c}, NK Lokomotiva {c}, Slaven {c}, Istra {c}, NK Varaždin {c}'),
  rs: style('east', 'FK {c}, Partizan {c}, Crvena Zvezda {c}, Vojvodina {c}, Radnički {c}, Čukarički {c}, Spartak {c}, Napredak {c}'),
  si: style('east', 'NK {c}, NK Olimpija {c}, NK Maribor {c}, ND {c}, NK Celje {c}, NK Mura {c}'),
  bg: style('east', 'PFC {c}, CSKA {c}, Levski {c}, Lokomotiv {c}, Botev {c}, Slavia {c}, Beroe {c}, Cherno More {c}, Ludogorets {c}'),
  hu: style('east', '{c} FC, Újpest {c}, Honvéd {c}, MTK {c}, Vasas {c}, {c} ETO FC, {c} VSC, {c} Vasas'),
  ro: style('east', 'FC {c}, CFR {c}, Dinamo {c}, Rapid {c}, Universitatea {c}, Steaua {c}, Petrolul {c}, Farul {c}, Politehnica {c}'),
  el: style('east', 'Olympiakos {c}, AEK {c}, Aris {c}, Panionios {c}, Atromitos {c}, OFI {c}, Asteras {c}, PAS {c}, Ionikos {c}, {c} FC'),
  tr: style('tr', '{c}spor, {c} Belediyespor, {c} FK, {c} SK, {c} Gençlerbirliği, {c} İdman Yurdu')
}

export interface VenueStyle {
  names: readonly string[]
  /** Street pattern with `{s}` (a surname) and `{n}` (a house number). */
  street: string
}

const venue = (street: string, names: string): VenueStyle => ({ street, names: list(names) })

export const VENUE_PATTERNS: Readonly<Record<string, VenueStyle>> = {
  en: venue('{n} {s} Road', '{c} Park, {s} Park, {s} Road, {c} Stadium, {s} Lane, {c} Community Stadium'),
  nordic: venue('{s}vej {n}', '{c} Stadion, {s} Park, {c} Arena, Idrætspark {c}'),
  de: venue('{s}straße {n}', '{c} Arena, Stadion {c}, {s}-Stadion, Sportpark {c}, Waldstadion {c}'),
  nl: venue('{s}straat {n}', '{c} Stadion, Stadion {s}, Sportpark {c}, {c} Arena'),
  fr: venue('{n} rue {s}', 'Stade {s}, Stade de {c}, Stade Municipal de {c}, Parc des Sports de {c}'),
  es: venue('Calle {s} {n}', 'Estadio {c}, Estadio {s}, Estadio Municipal de {c}, Campo de {s}'),
  pt: venue('Rua {s} {n}', 'Estádio {c}, Estádio {s}, Estádio Municipal de {c}'),
  it: venue('Via {s} {n}', 'Stadio {s}, Stadio Comunale di {c}, Stadio {c}, Arena {c}'),
  east: venue('{s} {n}', 'Stadion {c}, Stadion {s}, {c} Arena'),
  tr: venue('{s} Caddesi {n}', '{c} Stadyumu, {s} Stadyumu, {c} Arena')
}

/** Surfaces of club venues; the real API mostly says `grass`. */
export const SURFACES = ['grass', 'grass', 'grass', 'grass', 'grass', 'grass', 'grass', 'artificial turf', 'hybrid'] as const

/** Referee-pool countries for the international competitions (UEFA panel): iso3 codes. */
export const UEFA_REFEREE_COUNTRIES = ['ENG', 'ESP', 'DEU', 'ITA', 'FRA', 'NLD', 'PRT', 'DNK', 'SCO', 'POL', 'SVN', 'TUR', 'ROU', 'SWE'] as const
