/**
 * The fixed world of the dataset: continents, countries (real ISO/FIFA codes, geonames ids and borders),
 * regions and real city names. Seed-independent on purpose: the world stays put, the football is seeded.
 * Country ids follow the real API where known (Denmark 320, Scotland 1161, England 462, Germany 11, ...).
 * City coordinates are generated inside `lat ± spread[0]`, `lng ± spread[1]`: roughly inside the country.
 */

export interface ContinentSeed { id: number, name: string, code: string }

/** The real API's continent ids (5 is Antarctica, which has no football and is left out). */
export const CONTINENTS: readonly ContinentSeed[] = [
  { id: 1, name: 'Europe', code: 'EU' },
  { id: 2, name: 'Asia', code: 'AS' },
  { id: 3, name: 'Africa', code: 'AF' },
  { id: 4, name: 'Oceania', code: 'OC' },
  { id: 6, name: 'North America', code: 'NA' },
  { id: 7, name: 'South America', code: 'SA' }
]

interface RegionSeed { name: string, cities: string[] }

export interface CountrySeed {
  id: number
  continent: number
  name: string
  official: string
  fifa: string
  iso2: string
  iso3: string
  lat: number
  lng: number
  spread: readonly [number, number]
  geonameid: number
  /** Key of the person-name pool (names.ts). */
  names: string
  /** Key of the club and venue naming style (names.ts); null where the dataset has no clubs. */
  clubs: string | null
  borders: string[]
  regions: RegionSeed[]
}

const EU = 1
const AS = 2
const AF = 3
const OC = 4
const NA = 6
const SA = 7

function parseRegions (text: string): RegionSeed[] {
  return text.split(';').map((part) => {
    const [name = '', cities = ''] = part.split(':')
    return { name: name.trim(), cities: cities.split(',').map((c) => c.trim()).filter((c) => c !== '') }
  })
}

/** `codes` is `FIFA ISO2 ISO3`; `style` is `names` or `names/clubs`. */
function c (id: number, continent: number, name: string, official: string, codes: string, lat: number, lng: number,
  spread: [number, number], geonameid: number, style: string, borders: string, regions: string): CountrySeed {
  const [fifa = '', iso2 = '', iso3 = ''] = codes.split(' ')
  const [names = 'en', clubs] = style.split('/')
  return {
    id,
    continent,
    name,
    official,
    fifa,
    iso2,
    iso3,
    lat,
    lng,
    spread,
    geonameid,
    names,
    clubs: continent === EU ? (clubs ?? names) : null,
    borders: borders === '' ? [] : borders.split(' '),
    regions: parseRegions(regions)
  }
}

export const COUNTRIES: readonly CountrySeed[] = [
  c(320, EU, 'Denmark', 'Kingdom of Denmark', 'DEN DK DNK', 56.26, 9.5, [0.9, 1.6], 2623032, 'da', 'DEU',
    'Hovedstaden: København, Frederiksberg, Brøndby, Lyngby, Hillerød, Helsingør; Sjælland: Roskilde, Næstved, Køge, Holbæk, Slagelse; ' +
    'Syddanmark: Odense, Esbjerg, Vejle, Kolding, Sønderborg, Haderslev; Midtjylland: Aarhus, Herning, Randers, Silkeborg, Horsens, Viborg; ' +
    'Nordjylland: Aalborg, Hjørring, Frederikshavn'),
  c(1161, EU, 'Scotland', 'Scotland', 'SCO GB SCO', 56.49, -4.2, [0.9, 1.0], 2638360, 'sc', 'ENG',
    'Glasgow: Glasgow, Paisley, Motherwell, Hamilton, Airdrie, Coatbridge; Lothian: Edinburgh, Livingston, Falkirk; ' +
    'North East: Aberdeen, Peterhead, Elgin; Tayside: Dundee, Perth, Arbroath, Montrose; Highland: Inverness, Dingwall; ' +
    'South West: Kilmarnock, Ayr, Dumfries, Greenock; Central: Stirling, Alloa'),
  c(462, EU, 'England', 'England', 'ENG GB ENG', 52.36, -1.17, [1.5, 1.3], 6269131, 'en', 'SCO WAL',
    'Greater London: London, Croydon, Barnet, Bromley, Wimbledon; ' +
    'North West: Manchester, Liverpool, Bolton, Blackburn, Preston, Wigan, Blackpool, Burnley, Stockport, Oldham; ' +
    'West Midlands: Birmingham, Wolverhampton, Coventry, Stoke, Walsall, West Bromwich; ' +
    'Yorkshire: Leeds, Sheffield, Bradford, Hull, Huddersfield, Barnsley, Rotherham, Doncaster; ' +
    'North East: Newcastle, Sunderland, Middlesbrough, Hartlepool; East Midlands: Nottingham, Derby, Leicester, Northampton, Lincoln; ' +
    'South East: Southampton, Portsmouth, Brighton, Reading, Oxford, Crawley; South West: Bristol, Plymouth, Exeter, Swindon, Bournemouth; ' +
    'East of England: Norwich, Ipswich, Cambridge, Luton, Peterborough, Colchester'),
  c(491, EU, 'Wales', 'Wales', 'WAL GB WAL', 52.13, -3.78, [0.5, 0.5], 2634895, 'en', 'ENG',
    'South Wales: Cardiff, Swansea, Newport, Merthyr Tydfil, Bridgend; North Wales: Wrexham, Bangor, Rhyl; Mid Wales: Aberystwyth, Newtown'),
  c(1179, EU, 'Northern Ireland', 'Northern Ireland', 'NIR GB NIR', 54.61, -6.63, [0.3, 0.6], 2641364, 'en', 'IRL',
    'Belfast: Belfast, Lisburn; Causeway: Derry, Coleraine, Ballymena; Armagh: Newry, Portadown, Lurgan'),
  c(1170, EU, 'Ireland', 'Ireland', 'IRL IE IRL', 53.2, -8.0, [0.9, 1.0], 2963597, 'en', 'NIR',
    'Leinster: Dublin, Dundalk, Drogheda, Bray, Athlone; Munster: Cork, Limerick, Waterford; Connacht: Galway, Sligo; Ulster: Letterkenny'),
  c(32, EU, 'Spain', 'Kingdom of Spain', 'ESP ES ESP', 40.2, -3.6, [2.5, 3.5], 2510769, 'es', 'PRT FRA',
    'Madrid: Madrid, Getafe, Leganés, Alcorcón, Fuenlabrada; Cataluña: Barcelona, Girona, Tarragona, Lleida, Sabadell; ' +
    'Andalucía: Sevilla, Málaga, Granada, Cádiz, Almería, Córdoba, Huelva; Comunidad Valenciana: Valencia, Alicante, Elche, Castellón, Villarreal; ' +
    'País Vasco: Bilbao, San Sebastián, Vitoria-Gasteiz, Eibar; Galicia: Vigo, A Coruña, Ourense, Lugo; ' +
    'Castilla y León: Valladolid, Salamanca, Burgos, León; Aragón: Zaragoza, Huesca; Asturias: Oviedo, Gijón'),
  c(20, EU, 'Portugal', 'Portuguese Republic', 'POR PT PRT', 39.6, -8.0, [1.5, 0.6], 2264397, 'pt', 'ESP',
    'Lisboa: Lisboa, Amadora, Sintra, Estoril, Barreiro; Norte: Porto, Braga, Guimarães, Vila do Conde, Famalicão, Chaves, Barcelos, Paços de Ferreira, Arouca; ' +
    'Centro: Coimbra, Aveiro, Leiria, Viseu; Alentejo: Évora, Beja; Algarve: Faro, Portimão; Madeira: Funchal'),
  c(17, EU, 'France', 'French Republic', 'FRA FR FRA', 46.6, 2.4, [2.5, 3.0], 3017382, 'fr', 'ESP BEL LUX DEU CHE ITA',
    'Île-de-France: Paris, Versailles, Créteil; Auvergne-Rhône-Alpes: Lyon, Saint-Étienne, Grenoble, Clermont-Ferrand; ' +
    'Provence-Alpes-Côte d\'Azur: Marseille, Nice, Toulon; Hauts-de-France: Lille, Lens, Amiens, Valenciennes; ' +
    'Nouvelle-Aquitaine: Bordeaux, Limoges, Pau; Occitanie: Toulouse, Montpellier, Nîmes; Bretagne: Rennes, Brest, Lorient, Guingamp; ' +
    'Pays de la Loire: Nantes, Angers, Le Mans; Grand Est: Strasbourg, Reims, Metz, Nancy, Troyes; Normandie: Le Havre, Caen, Rouen'),
  c(11, EU, 'Germany', 'Federal Republic of Germany', 'GER DE DEU', 51.1, 10.4, [2.3, 3.0], 2921044, 'de', 'DNK POL CZE AUT CHE FRA LUX BEL NLD',
    'Bayern: München, Nürnberg, Augsburg, Regensburg, Fürth, Würzburg; ' +
    'Nordrhein-Westfalen: Dortmund, Köln, Düsseldorf, Gelsenkirchen, Mönchengladbach, Bochum, Bielefeld, Leverkusen, Münster, Essen; ' +
    'Baden-Württemberg: Stuttgart, Freiburg, Karlsruhe, Heidelberg, Mannheim; Niedersachsen: Hannover, Wolfsburg, Braunschweig, Osnabrück; ' +
    'Hessen: Frankfurt, Darmstadt, Kassel, Wiesbaden; Berlin: Berlin; Hamburg: Hamburg; Bremen: Bremen; Sachsen: Leipzig, Dresden, Chemnitz; ' +
    'Rheinland-Pfalz: Mainz, Kaiserslautern, Koblenz'),
  c(251, EU, 'Italy', 'Italian Republic', 'ITA IT ITA', 42.8, 12.5, [2.5, 2.0], 3175395, 'it', 'FRA CHE AUT SVN',
    'Lombardia: Milano, Bergamo, Brescia, Como, Monza, Cremona; Piemonte: Torino, Novara, Alessandria; Lazio: Roma, Latina, Frosinone; ' +
    'Campania: Napoli, Salerno, Avellino, Benevento; Toscana: Firenze, Pisa, Empoli, Livorno; ' +
    'Emilia-Romagna: Bologna, Parma, Modena, Reggio Emilia, Ferrara; Veneto: Venezia, Verona, Padova, Vicenza; Liguria: Genova, La Spezia; ' +
    'Sicilia: Palermo, Catania, Messina; Puglia: Bari, Lecce, Foggia'),
  c(38, EU, 'Netherlands', 'Kingdom of the Netherlands', 'NED NL NLD', 52.13, 5.29, [0.6, 0.8], 2750405, 'nl', 'DEU BEL',
    'Noord-Holland: Amsterdam, Haarlem, Alkmaar, Zaandam; Zuid-Holland: Rotterdam, Den Haag, Leiden, Dordrecht; ' +
    'Noord-Brabant: Eindhoven, Tilburg, Breda, Den Bosch, Helmond; Gelderland: Arnhem, Nijmegen, Apeldoorn, Doetinchem; ' +
    'Overijssel: Enschede, Zwolle, Deventer, Almelo; Groningen: Groningen; Friesland: Heerenveen, Leeuwarden; Limburg: Maastricht, Venlo, Sittard; ' +
    'Utrecht: Utrecht, Amersfoort'),
  c(556, EU, 'Belgium', 'Kingdom of Belgium', 'BEL BE BEL', 50.5, 4.47, [0.4, 0.9], 2802361, 'be', 'NLD DEU LUX FRA',
    'Flanders: Antwerpen, Gent, Brugge, Leuven, Mechelen, Genk, Kortrijk, Oostende; Wallonia: Liège, Charleroi, Namur, Mons; Brussels: Brussel'),
  c(62, EU, 'Switzerland', 'Swiss Confederation', 'SUI CH CHE', 46.82, 8.23, [0.4, 1.2], 2658434, 'de/ch', 'DEU FRA ITA AUT',
    'Zürich: Zürich, Winterthur; Bern: Bern, Thun, Biel; Geneva: Genève; Vaud: Lausanne, Montreux; Basel: Basel; Ticino: Lugano, Bellinzona; ' +
    'St. Gallen: St. Gallen; Lucerne: Luzern'),
  c(1578, EU, 'Austria', 'Republic of Austria', 'AUT AT AUT', 47.52, 14.55, [0.4, 2.2], 2782113, 'de/at', 'DEU CZE SVK HUN SVN ITA CHE',
    'Wien: Wien; Salzburg: Salzburg; Steiermark: Graz, Hartberg; Oberösterreich: Linz, Ried, Wels; Tirol: Innsbruck, Wattens; ' +
    'Kärnten: Klagenfurt, Wolfsberg; Niederösterreich: St. Pölten'),
  c(1199, EU, 'Poland', 'Republic of Poland', 'POL PL POL', 52.07, 19.48, [1.7, 2.8], 798544, 'pl', 'DEU CZE SVK UKR',
    'Mazowieckie: Warszawa, Radom, Płock; Małopolskie: Kraków, Tarnów, Nowy Sącz; Śląskie: Katowice, Zabrze, Chorzów, Gliwice, Bielsko-Biała; ' +
    'Wielkopolskie: Poznań, Kalisz; Pomorskie: Gdańsk, Gdynia; Dolnośląskie: Wrocław, Legnica, Lubin; Łódzkie: Łódź; ' +
    'Zachodniopomorskie: Szczecin; Podlaskie: Białystok'),
  c(266, EU, 'Czech Republic', 'Czech Republic', 'CZE CZ CZE', 49.82, 15.47, [0.6, 2.0], 3077311, 'cs', 'DEU POL SVK AUT',
    'Praha: Praha; Jihomoravský: Brno, Znojmo; Moravskoslezský: Ostrava, Karviná, Opava; Plzeňský: Plzeň; Liberecký: Liberec, Jablonec nad Nisou; ' +
    'Olomoucký: Olomouc; Zlínský: Zlín, Uherské Hradiště; Středočeský: Mladá Boleslav, Příbram'),
  c(161, EU, 'Sweden', 'Kingdom of Sweden', 'SWE SE SWE', 59.0, 15.0, [2.5, 2.5], 2661886, 'nordic/se', 'NOR FIN',
    'Stockholm: Stockholm, Solna, Södertälje; Västra Götaland: Göteborg, Borås, Trollhättan; Skåne: Malmö, Helsingborg, Lund; ' +
    'Östergötland: Norrköping, Linköping; Uppsala: Uppsala; Värmland: Karlstad'),
  c(1123, EU, 'Norway', 'Kingdom of Norway', 'NOR NO NOR', 61.0, 9.0, [2.5, 2.5], 3144096, 'nordic/no', 'SWE FIN',
    'Oslo: Oslo; Vestland: Bergen; Trøndelag: Trondheim; Rogaland: Stavanger, Haugesund, Sandnes; Nordland: Bodø; Troms: Tromsø; ' +
    'Viken: Drammen, Fredrikstad, Sarpsborg, Lillestrøm; Agder: Kristiansand; Møre og Romsdal: Molde, Ålesund'),
  c(1184, EU, 'Finland', 'Republic of Finland', 'FIN FI FIN', 62.5, 25.5, [2.0, 2.5], 660013, 'fi', 'SWE NOR',
    'Uusimaa: Helsinki, Espoo, Vantaa; Pirkanmaa: Tampere; Southwest Finland: Turku; North Ostrobothnia: Oulu; Ostrobothnia: Vaasa, Seinäjoki; ' +
    'Kymenlaakso: Kotka, Kouvola; North Savo: Kuopio'),
  c(1024, EU, 'Croatia', 'Republic of Croatia', 'CRO HR HRV', 45.3, 16.2, [0.5, 0.9], 3202326, 'balkan/hr', 'SVN HUN SRB',
    'Zagreb: Zagreb, Velika Gorica; Split-Dalmatia: Split, Sinj; Primorje-Gorski Kotar: Rijeka; Osijek-Baranja: Osijek; Istria: Pula; ' +
    'Zadar: Zadar; Varaždin: Varaždin'),
  c(1005, EU, 'Serbia', 'Republic of Serbia', 'SRB RS SRB', 44.0, 20.9, [0.9, 0.7], 6290252, 'balkan/rs', 'HUN ROU BGR HRV',
    'Belgrade: Beograd; Vojvodina: Novi Sad, Subotica, Zrenjanin; Šumadija: Kragujevac; Nišava: Niš; Zlatibor: Užice'),
  c(125, EU, 'Greece', 'Hellenic Republic', 'GRE GR GRC', 39.6, 22.0, [1.3, 1.2], 390903, 'el', 'BGR TUR',
    'Attica: Athens, Piraeus; Central Macedonia: Thessaloniki, Serres; Crete: Heraklion, Chania; Thessaly: Larissa, Volos; ' +
    'Western Greece: Patras; Epirus: Ioannina'),
  c(404, EU, 'Turkey', 'Republic of Türkiye', 'TUR TR TUR', 39.0, 35.2, [1.8, 6.0], 298795, 'tr', 'GRC BGR',
    'Marmara: Istanbul, Bursa, Kocaeli, Sakarya; Central Anatolia: Ankara, Konya, Kayseri, Sivas; Aegean: İzmir, Denizli, Manisa; ' +
    'Mediterranean: Antalya, Adana, Hatay; Black Sea: Trabzon, Samsun, Rize; Southeastern Anatolia: Gaziantep, Diyarbakır'),
  c(1033, EU, 'Ukraine', 'Ukraine', 'UKR UA UKR', 49.0, 31.3, [1.8, 6.0], 690791, 'uk', 'POL SVK HUN ROU',
    'Kyiv: Kyiv; Kharkiv: Kharkiv; Dnipropetrovsk: Dnipro, Kryvyi Rih; Lviv: Lviv; Odesa: Odesa; Poltava: Poltava, Kremenchuk; ' +
    'Zakarpattia: Uzhhorod; Volyn: Lutsk; Donetsk: Donetsk, Mariupol'),
  c(686, EU, 'Hungary', 'Hungary', 'HUN HU HUN', 47.16, 19.5, [0.6, 1.8], 719819, 'hu', 'AUT SVK UKR ROU SRB HRV SVN',
    'Budapest: Budapest; Pest: Vác; Győr-Moson-Sopron: Győr, Sopron; Hajdú-Bihar: Debrecen; Fejér: Székesfehérvár; Csongrád: Szeged; ' +
    'Borsod-Abaúj-Zemplén: Miskolc; Baranya: Pécs; Vas: Szombathely; Zala: Zalaegerszeg'),
  c(515, EU, 'Romania', 'Romania', 'ROU RO ROU', 45.9, 24.97, [1.3, 2.8], 798549, 'ro', 'UKR HUN SRB BGR',
    'București: București; Cluj: Cluj-Napoca; Constanța: Constanța, Ovidiu; Timiș: Timișoara; Iași: Iași; Prahova: Ploiești; ' +
    'Dolj: Craiova; Brașov: Brașov; Argeș: Pitești; Galați: Galați'),
  c(1043, EU, 'Slovenia', 'Republic of Slovenia', 'SVN SI SVN', 46.15, 14.99, [0.3, 0.8], 3190538, 'balkan/si', 'ITA AUT HUN HRV',
    'Osrednjeslovenska: Ljubljana, Domžale; Podravska: Maribor, Ptuj; Savinjska: Celje; Gorenjska: Kranj; Pomurska: Murska Sobota; ' +
    'Obalno-kraška: Koper'),
  c(1215, EU, 'Slovakia', 'Slovak Republic', 'SVK SK SVK', 48.67, 19.7, [0.4, 1.9], 3057568, 'cs/sk', 'CZE POL UKR HUN AUT',
    'Bratislava: Bratislava; Trnava: Trnava, Senica; Žilina: Žilina, Ružomberok; Košice: Košice; Nitra: Nitra; ' +
    'Banská Bystrica: Banská Bystrica; Trenčín: Trenčín; Prešov: Prešov'),
  c(1166, EU, 'Luxembourg', 'Grand Duchy of Luxembourg', 'LUX LU LUX', 49.75, 6.13, [0.2, 0.15], 2960313, 'fr/lu', 'BEL DEU FRA',
    'Luxembourg: Luxembourg, Strassen; Esch-sur-Alzette: Esch-sur-Alzette, Differdange, Dudelange; Diekirch: Diekirch, Ettelbruck; ' +
    'Grevenmacher: Grevenmacher'),
  c(1227, EU, 'Bulgaria', 'Republic of Bulgaria', 'BUL BG BGR', 42.73, 25.49, [0.6, 2.2], 732800, 'bg', 'ROU SRB GRC TUR',
    'Sofia: Sofia; Plovdiv: Plovdiv; Varna: Varna; Burgas: Burgas; Stara Zagora: Stara Zagora; Ruse: Ruse; Lovech: Lovech; ' +
    'Pleven: Pleven; Razgrad: Razgrad'),
  c(5, SA, 'Brazil', 'Federative Republic of Brazil', 'BRA BR BRA', -15.8, -47.9, [8.0, 6.0], 3469034, 'br', 'ARG URY COL',
    'São Paulo: São Paulo, Campinas, Santos, Ribeirão Preto; Rio de Janeiro: Rio de Janeiro, Niterói, Volta Redonda; ' +
    'Minas Gerais: Belo Horizonte, Uberlândia; Rio Grande do Sul: Porto Alegre, Caxias do Sul; Paraná: Curitiba, Londrina; ' +
    'Bahia: Salvador; Pernambuco: Recife; Ceará: Fortaleza'),
  c(44, SA, 'Argentina', 'Argentine Republic', 'ARG AR ARG', -34.0, -63.6, [5.0, 3.0], 3865483, 'latam', 'BRA URY CHL',
    'Buenos Aires: Buenos Aires, La Plata, Avellaneda, Mar del Plata; Córdoba: Córdoba, Río Cuarto; Santa Fe: Rosario, Santa Fe; ' +
    'Mendoza: Mendoza; Tucumán: San Miguel de Tucumán'),
  c(74, SA, 'Uruguay', 'Oriental Republic of Uruguay', 'URU UY URY', -32.8, -56.0, [1.5, 1.5], 3439705, 'latam', 'BRA ARG',
    'Montevideo: Montevideo; Canelones: Canelones, Las Piedras; Maldonado: Maldonado, Punta del Este; Salto: Salto; Paysandú: Paysandú'),
  c(263, SA, 'Chile', 'Republic of Chile', 'CHI CL CHL', -33.4, -70.9, [6.0, 0.6], 3895114, 'latam', 'ARG',
    'Santiago: Santiago, Puente Alto; Valparaíso: Valparaíso, Viña del Mar; Biobío: Concepción, Talcahuano; Antofagasta: Antofagasta; ' +
    'Coquimbo: La Serena, Coquimbo'),
  c(377, SA, 'Colombia', 'Republic of Colombia', 'COL CO COL', 5.0, -74.3, [3.5, 2.0], 3686110, 'latam', 'BRA',
    'Bogotá: Bogotá; Antioquia: Medellín, Envigado; Valle del Cauca: Cali, Palmira; Atlántico: Barranquilla; Santander: Bucaramanga; ' +
    'Bolívar: Cartagena'),
  c(3483, NA, 'United States', 'United States of America', 'USA US USA', 38.5, -97.0, [6.0, 20.0], 6252001, 'en', 'CAN MEX',
    'California: Los Angeles, San Jose, San Diego, San Francisco; Texas: Houston, Dallas, Austin; New York: New York, Rochester; ' +
    'Florida: Miami, Orlando; Washington: Seattle; Illinois: Chicago; Georgia: Atlanta'),
  c(458, NA, 'Mexico', 'United Mexican States', 'MEX MX MEX', 22.0, -101.0, [4.0, 5.0], 3996063, 'latam', 'USA',
    'Ciudad de México: Ciudad de México; Jalisco: Guadalajara, Zapopan; Nuevo León: Monterrey, San Nicolás de los Garza; Puebla: Puebla; ' +
    'Guanajuato: León; Querétaro: Querétaro; Baja California: Tijuana'),
  c(1038, NA, 'Canada', 'Canada', 'CAN CA CAN', 47.5, -95.0, [3.0, 25.0], 6251999, 'en', 'USA',
    'Ontario: Toronto, Ottawa, Hamilton; Quebec: Montréal, Québec; British Columbia: Vancouver, Victoria; Alberta: Calgary, Edmonton; ' +
    'Manitoba: Winnipeg; Nova Scotia: Halifax'),
  c(497, AF, 'Morocco', 'Kingdom of Morocco', 'MAR MA MAR', 32.0, -6.8, [2.0, 2.0], 2542007, 'ar', '',
    'Casablanca-Settat: Casablanca, El Jadida; Rabat-Salé-Kénitra: Rabat, Salé, Kénitra; Marrakech-Safi: Marrakech, Safi; ' +
    'Fès-Meknès: Fès, Meknès; Tanger-Tétouan-Al Hoceïma: Tanger, Tétouan; Souss-Massa: Agadir'),
  c(1061, AF, 'Nigeria', 'Federal Republic of Nigeria', 'NGA NG NGA', 9.08, 8.68, [3.0, 3.0], 2328926, 'ng', '',
    'Lagos: Lagos, Ikeja; Federal Capital Territory: Abuja; Kano: Kano; Rivers: Port Harcourt; Oyo: Ibadan; Enugu: Enugu; Kaduna: Kaduna'),
  c(1090, AF, 'Egypt', 'Arab Republic of Egypt', 'EGY EG EGY', 27.0, 30.8, [3.5, 2.0], 357994, 'ar', '',
    'Cairo: Cairo, Helwan; Giza: Giza; Alexandria: Alexandria; Ismailia: Ismailia; Port Said: Port Said; Suez: Suez'),
  c(479, AS, 'Japan', 'Japan', 'JPN JP JPN', 36.2, 138.25, [3.0, 3.0], 1861060, 'ja', '',
    'Kantō: Tokyo, Yokohama, Kawasaki, Saitama, Kashima, Chiba; Kansai: Osaka, Kobe, Kyoto; Chūbu: Nagoya, Niigata, Shizuoka; ' +
    'Kyūshū: Fukuoka, Kumamoto; Chūgoku: Hiroshima; Hokkaidō: Sapporo'),
  c(1144, AS, 'South Korea', 'Republic of Korea', 'KOR KR KOR', 36.5, 127.8, [1.2, 0.9], 1835841, 'ko', '',
    'Seoul: Seoul; Gyeonggi: Suwon, Seongnam, Anyang; Gyeongsang: Busan, Ulsan, Pohang, Daegu; Jeolla: Jeonju, Gwangju; Incheon: Incheon'),
  c(1156, AS, 'Saudi Arabia', 'Kingdom of Saudi Arabia', 'KSA SA SAU', 24.0, 45.0, [4.0, 5.0], 102358, 'ar', '',
    'Riyadh: Riyadh; Makkah: Jeddah, Mecca, Taif; Eastern Province: Dammam, Al-Khobar; Madinah: Medina; Qassim: Buraidah'),
  c(98, OC, 'Australia', 'Commonwealth of Australia', 'AUS AU AUS', -27.0, 134.0, [7.0, 13.0], 2077456, 'en', '',
    'New South Wales: Sydney, Newcastle, Wollongong; Victoria: Melbourne, Geelong; Queensland: Brisbane, Gold Coast; ' +
    'Western Australia: Perth; South Australia: Adelaide'),
  c(2196, OC, 'New Zealand', 'New Zealand', 'NZL NZ NZL', -41.0, 174.0, [4.0, 2.5], 2186224, 'en', '',
    'Auckland: Auckland; Wellington: Wellington; Canterbury: Christchurch; Waikato: Hamilton; Otago: Dunedin')
]

/**
 * The real API files international competitions under a pseudo-country; the dataset has one, "Europe",
 * for the Champions League, the European Championship and the club friendlies. It has no regions or cities.
 */
export const EUROPE_PSEUDO_COUNTRY = {
  id: 41,
  continent: EU,
  name: 'Europe',
  official: 'Europe',
  codes: 'EUR EU EUR',
  lat: 48.69,
  lng: 9.14,
  geonameid: 6255148
} as const
